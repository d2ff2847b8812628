public import Dispatch

extension QXPromise {
    /// Runs this step again, with the input it kept (``valueKeptForRetry``), while it fails: up to
    /// `attempts` more times.
    ///
    /// Call it on a link made by ``then(on:_:)-(DispatchQueue,_)``. If the link is fulfilled, the value passes
    /// through. If its `thenBlock` ran and failed (threw, or returned a promise that was rejected),
    /// the block runs again with the same input, on `queue`; the returned promise settles as the
    /// first attempt that succeeds, or as the last one. A rejection that did not come from the
    /// block (the link's input was already a rejection) has nothing to retry and passes through.
    ///
    /// ```swift
    /// user.then { user in api.avatar(of: user as! User) }   // a promise that may fail
    ///     .retry(3)
    ///     .then { avatar in show(avatar) }
    /// ```
    ///
    /// - Parameters:
    ///   - attempts: How many more times to run the step; must not be negative.
    ///   - queue: Where the block runs again.
    /// - Returns: A promise of the step's value. A negative `attempts` rejects it with
    ///   ``QXPromiseError/invalidArgument(_:)``, and the step is not run again.
    @discardableResult
    public func retry(_ attempts: Int, on queue: DispatchQueue = defaultQueue) -> QXPromise {
        guard attempts >= 0 else {
            return QXPromise(
                rejectedWith: QXPromiseError.invalidArgument(
                    "retry needs a non-negative number of attempts; got \(attempts)"),
                on: queue
            )
        }
        return chain(
            on: queue,
            thenBlock: nil,
            catchBlock: { error in
                guard attempts > 0, let step = self.core.withLock({ $0.retryStep }) else { throw error }
                return QXPromise(fulfilledWith: step.input, on: queue)
                    .chain(on: queue, thenBlock: step.thenBlock, catchBlock: nil)
                    .retry(attempts - 1, on: queue)
            }
        )
    }
}
