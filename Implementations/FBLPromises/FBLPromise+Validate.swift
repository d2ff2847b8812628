public import Dispatch

extension FBLPromise {
    /// Checks the value: passes it on if `predicate` returns `true`, otherwise rejects with
    /// ``PromiseError/validationFailure``. A rejection passes through.
    ///
    /// - Parameters:
    ///   - queue: Where `predicate` runs.
    ///   - predicate: Decides whether the value is acceptable.
    /// - Returns: A promise of the same value, or rejected.
    @discardableResult
    public func validate(
        on queue: DispatchQueue = defaultQueue,
        _ predicate: @escaping @Sendable (Value) -> Bool
    ) -> FBLPromise<Value> {
        chain(
            on: queue,
            chainedFulfill: { predicate($0) ? .value($0) : .error(PromiseError.validationFailure) },
            chainedReject: { .error($0) }
        )
    }
}
