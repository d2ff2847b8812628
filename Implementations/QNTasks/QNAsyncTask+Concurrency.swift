extension QNAsyncTask {
    /// Starts the task (if it has not started) and waits for its result.
    ///
    /// Cancelling the awaiting Swift `Task` cancels this task; a cancelled task throws
    /// `CancellationError`, a failed one its error.
    ///
    /// ```swift
    /// let items = try await loader.value
    /// ```
    ///
    /// The result is handed over on the thread that finishes the task, so waiting does not depend
    /// on any queue (such as the main queue) being serviced. A manual task that nobody ever
    /// completes never returns, like a promise nobody resolves.
    public var value: Result {
        get async throws {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    start(
                        observer: Self.typedObserver(on: nil) { outcome in continuation.resume(with: outcome.result) })
                }
            } onCancel: {
                cancel()
            }
        }
    }
}
