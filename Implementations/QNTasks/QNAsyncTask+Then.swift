public import Dispatch

extension QNAsyncTask {
    /// Continues with the task `next` makes from this task's result: typed, lazy composition.
    ///
    /// Nothing runs until the returned task is started; starting it starts this task (if it has
    /// not started), then, on `queue`, calls `next` with the result and runs the task it returns.
    /// The returned task finishes as that task does. A failure of this task fails it without
    /// calling `next`; a throw from `next` fails it (a thrown `CancellationError` cancels it); a
    /// cancellation of this task cancels it; a `next` that returns the returned task itself
    /// fails it with ``QNTaskError/cycle``.
    /// Cancelling it cancels whichever task it is waiting for: this one, then the one `next`
    /// returned.
    ///
    /// ```swift
    /// let avatar = user.then { user in downloadAvatar(of: user) }   // nothing runs yet
    /// avatar.start(success: { show($0) }, failure: { log($0) })
    /// avatar.cancel()   // cancels the download, or the user request if it is still running
    /// ```
    ///
    /// - Parameters:
    ///   - queue: Where `next` runs. Defaults to the main queue.
    ///   - next: Makes the next task from the result.
    /// - Returns: A ready task of the next task's result.
    @inlinable
    public func then<Next: Sendable>(
        on queue: DispatchQueue = .main,
        _ next: @escaping @Sendable (Result) throws -> QNAsyncTask<Next>
    ) -> QNAsyncContinuationTask<Result, Next> {
        QNAsyncContinuationTask(source: self, queue: queue, continuation: .then(next))
    }

    /// Continues with `transform` applied to this task's result: typed, lazy composition.
    ///
    /// Nothing runs until the returned task is started; starting it starts this task (if it has
    /// not started), then, on `queue`, succeeds with `transform`'s value or fails with its
    /// throw. A failure or cancellation of this task passes through without calling `transform`.
    /// Cancelling the returned task while this one runs cancels this one.
    ///
    /// ```swift
    /// let names = users.map { users in users.map(\.name) }
    /// names.start(success: { show($0) }, failure: { log($0) })
    /// ```
    ///
    /// - Parameters:
    ///   - queue: Where `transform` runs. Defaults to the main queue.
    ///   - transform: Maps the result.
    /// - Returns: A ready task of the mapped result.
    // Inlinable, as `then` above: made in the caller's specialised code, the continuation's class
    // is found through a cached accessor, not a generic-metadata lookup per link.
    @inlinable
    public func map<Next: Sendable>(
        on queue: DispatchQueue = .main,
        _ transform: @escaping @Sendable (Result) throws -> Next
    ) -> QNAsyncContinuationTask<Result, Next> {
        QNAsyncContinuationTask(source: self, queue: queue, continuation: .map(transform))
    }
}
