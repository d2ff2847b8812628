public import Dispatch

extension FBLPromise {
    /// Replaces a rejection with the outcome of another promise; a fulfilment passes through.
    ///
    /// - Parameters:
    ///   - queue: Where `recovery` runs.
    ///   - recovery: Receives the error and returns the promise to continue with; a throw rejects.
    /// - Returns: A promise that is fulfilled with this promise's value, or settles as the promise
    ///   `recovery` returns.
    @inlinable @discardableResult
    public func recover(
        on queue: DispatchQueue = defaultQueue,
        _ recovery: @escaping @Sendable (any Error) throws -> FBLPromise<Value>
    ) -> FBLPromise<Value> {
        chain(on: queue, chainedFulfill: { .value($0) }, chainedReject: { .promise(try recovery($0)) })
    }

    /// Replaces a rejection with a value; a fulfilment passes through.
    ///
    /// - Parameters:
    ///   - queue: Where `recovery` runs.
    ///   - recovery: Receives the error and returns a value to fulfil with; an error value or a
    ///     throw rejects.
    /// - Returns: A promise that is fulfilled with this promise's value or with `recovery`'s.
    @inlinable @discardableResult
    public func recover(
        on queue: DispatchQueue = defaultQueue,
        _ recovery: @escaping @Sendable (any Error) throws -> Value
    ) -> FBLPromise<Value> {
        chain(on: queue, chainedFulfill: { .value($0) }, chainedReject: { .value(try recovery($0)) })
    }
}
