public import Dispatch

extension FBLPromise {
    /// What the `then` operators run with the value (google/promises' `Then`).
    public typealias Then<Result> = @Sendable (Value) throws -> Result

    /// Transforms the value when this promise is fulfilled; a rejection passes through.
    ///
    /// `work` runs on `queue`. What it returns resolves the new promise: an error value or a
    /// throw rejects it, a thenable is assimilated, anything else fulfils it.
    ///
    /// ```swift
    /// FBLPromise(21).then { $0 * 2 }.then { print($0) }  // 42
    /// ```
    ///
    /// - Parameters:
    ///   - queue: Where `work` runs.
    ///   - work: Maps the value.
    /// - Returns: A promise of `work`'s result.
    @inlinable @discardableResult
    public func then<Result: Sendable>(
        on queue: DispatchQueue = defaultQueue,
        _ work: @escaping Then<Result>
    ) -> FBLPromise<Result> {
        // The new promise holds `work` and observes this one itself: no observer closure to
        // allocate (this is the hot path of every chain).
        FBLChainedPromise.observing(self, on: queue, step: .then(work))
    }

    /// Continues with another promise when this promise is fulfilled; a rejection passes through.
    ///
    /// The promise `work` returns is adopted. Returning the very promise `then` returned rejects it
    /// with ``PromiseError/cycle``.
    ///
    /// - Parameters:
    ///   - queue: Where `work` runs.
    ///   - work: Starts the next step.
    /// - Returns: A promise that settles as the one `work` returns.
    @inlinable @discardableResult
    public func then<Result: Sendable>(
        on queue: DispatchQueue = defaultQueue,
        _ work: @escaping Then<FBLPromise<Result>>
    ) -> FBLPromise<Result> {
        chain(on: queue, chainedFulfill: { .promise(try work($0)) }, chainedReject: { .error($0) })
    }

    /// Runs `work` with the value when this promise is fulfilled and passes the value on; a throw
    /// rejects, a rejection passes through without calling `work`.
    ///
    /// - Parameters:
    ///   - queue: Where `work` runs.
    ///   - work: A side effect on the value.
    /// - Returns: A promise of the same value.
    @inlinable @discardableResult
    public func then(
        on queue: DispatchQueue = defaultQueue,
        _ work: @escaping Then<Void>
    ) -> FBLPromise<Value> {
        FBLChainedPromise.observing(self, on: queue, step: .tap(work))
    }
}
