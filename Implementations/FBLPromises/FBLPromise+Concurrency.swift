extension FBLPromise {
    /// Makes a promise of what an async closure returns (or throws).
    ///
    /// The closure starts at once in a new unstructured `Task`. Beyond the original.
    ///
    /// Overload resolution picks this initializer for an `async` closure; a synchronous closure
    /// picks `init(on:_:)` (the value-returning one), which runs on ``defaultQueue``.
    ///
    /// - Parameter work: The async work.
    public convenience init(_ work: @escaping @Sendable () async throws -> Value) {
        self.init(pending: ())
        Task {
            do {
                self.fulfill(try await work())
            } catch {
                self.reject(error)
            }
        }
    }

    /// The value, once the promise is fulfilled: `let user = try await promise.value`. Throws the
    /// error if it is rejected.
    ///
    /// The same spelling as on Swift's `Task` and on the other three designs. Beyond the original,
    /// whose `value` is an internal synchronous property its own tests read through
    /// `@testable import` (`nil` while pending, when rejected, and, for a promise of an optional
    /// type, when fulfilled with `nil`). Here the synchronous inspection is ``result``, which
    /// tells those cases apart; a port that reads `promise.value` synchronously does not compile,
    /// rather than reading `nil` from a promise still pending.
    ///
    /// It needs no queue: the continuation resumes on the settling thread, so it works whatever
    /// ``defaultQueue`` is and whoever services the main queue. FBL promises cannot be cancelled,
    /// so cancelling the awaiting task does not end the wait.
    ///
    /// - Throws: The promise's error.
    public var value: Value {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                addObserver { continuation.resume(with: $0) }
            }
        }
    }
}
