public import Dispatch

extension FBLPromise {
    /// Runs `work` on `queue` whether this promise is fulfilled or rejected, then passes the
    /// outcome on unchanged.
    ///
    /// - Parameters:
    ///   - queue: Where `work` runs.
    ///   - work: Runs once the promise settles.
    /// - Returns: A promise that settles as this one does.
    @discardableResult
    public func always(
        on queue: DispatchQueue = defaultQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> FBLPromise<Value> {
        chain(
            on: queue,
            chainedFulfill: { value in
                work()
                return .value(value)
            },
            chainedReject: { error in
                work()
                return .error(error)
            }
        )
    }
}
