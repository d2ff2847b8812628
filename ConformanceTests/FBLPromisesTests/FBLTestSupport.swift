import FBLPromises
import TestSupport
import Testing

/// FBL-specific helpers over the shared `TestSupport` library. Every wait has a timeout, so a
/// promise that never settles fails its test instead of stalling the run.

/// Waits for `promise` to settle, at most `timeout`; needs no queue to be serviced.
func outcome<Value: Sendable>(
    of promise: FBLPromise<Value>,
    timeout: Duration = defaultTestTimeout
) async throws -> Result<Value, any Error> {
    try await awaitOutcome(timeout: timeout) { try await promise.value }
}

/// The value of `promise`, or a thrown error if it was rejected or timed out.
func value<Value: Sendable>(of promise: FBLPromise<Value>, timeout: Duration = defaultTestTimeout) async throws -> Value
{
    try await outcome(of: promise, timeout: timeout).get()
}

/// The error `promise` was rejected with; records an issue if it was fulfilled.
func error<Value: Sendable>(
    of promise: FBLPromise<Value>,
    timeout: Duration = defaultTestTimeout,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> (any Error)? {
    rejection(of: try await outcome(of: promise, timeout: timeout), sourceLocation: sourceLocation)
}

extension FBLPromise {
    /// The value if the promise is fulfilled, else `nil`: google/promises' internal `value`, which
    /// its tests read synchronously; here the library's synchronous inspection is `result`.
    var fulfilledValue: Value? {
        guard case .success(let value)? = result else { return nil }
        return value
    }
}
