public import Dispatch

extension QXPromise {
    /// Runs `block` when this promise settles, either way, and passes the outcome on unchanged; a
    /// throw from `block` rejects with the thrown error instead.
    ///
    /// ```swift
    /// spinner.start()
    /// load().finally { spinner.stop() }
    /// ```
    ///
    /// - Parameters:
    ///   - queue: Where `block` runs, asynchronously.
    ///   - block: The clean-up.
    /// - Returns: A promise that settles as this one does, after `block` ran.
    @discardableResult
    public func finally(
        on queue: DispatchQueue = defaultQueue, _ block: @escaping @Sendable () throws -> Void
    ) -> QXPromise {
        chain(
            on: queue,
            thenBlock: { value in
                try block()
                return value
            },
            catchBlock: { error in
                try block()
                throw error
            }
        )
    }
}
