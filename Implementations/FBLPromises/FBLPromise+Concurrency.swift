extension FBLPromise {
    /// Makes a promise of what an async closure returns (or throws).
    ///
    /// The closure starts at once in a new unstructured `Task`. Beyond the original.
    ///
    /// Overload resolution picks this initializer for an `async` closure; a synchronous closure
    /// picks ``init(on:_:)-(_,()->Value)``, which runs on ``defaultQueue``.
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

    /// Suspends until the promise settles, then returns its value or throws its error.
    ///
    /// It needs no queue: the continuation resumes on the settling thread, so it works whatever
    /// ``defaultQueue`` is and whoever services the main queue. FBL promises cannot be cancelled,
    /// so cancelling the awaiting task does not end the wait. Beyond the original; named as a
    /// method because the synchronous ``value`` property is google/promises' inspection API:
    /// `await promise.value` without the parentheses reads that property (and the compiler warns
    /// that nothing is awaited).
    ///
    /// - Returns: The value.
    /// - Throws: The promise's error.
    public func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            addObserver { continuation.resume(with: $0) }
        }
    }
}
