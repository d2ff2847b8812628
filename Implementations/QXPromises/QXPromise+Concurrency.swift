import PromiseRuntime

extension QXPromise {
    /// Suspends until the promise settles, then returns its value or throws its error.
    ///
    /// Needs no queue: the continuation resumes on the settling thread (an observation of the
    /// `state` key), so it works whoever services the main queue. QX promises cannot be cancelled,
    /// so cancelling the awaiting task does not end the wait. Beyond the original.
    ///
    /// ```swift
    /// let user = try await QXPromise { fulfill, _ in fulfill("Ada") }.value
    /// ```
    public var value: PromiseValue {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                whenSettled { outcome in
                    switch outcome {
                    case .fulfilled(let value): continuation.resume(returning: value)
                    case .rejected(let error): continuation.resume(throwing: error)
                    }
                }
            }
        }
    }
}
