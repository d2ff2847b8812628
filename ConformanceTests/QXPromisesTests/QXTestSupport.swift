import QXPromises
import TestSupport
import Testing

/// QX-specific helpers over the shared `TestSupport` library. Every wait has a timeout.

/// Waits for `promise` to settle, at most `timeout`; needs no queue to be serviced.
func outcome(
    of promise: QXPromise, timeout: Duration = defaultTestTimeout
) async throws -> Result<PromiseValue, any Error> {
    try await awaitOutcome("a promise", timeout: timeout) { try await promise.value }
}

/// The value of `promise`, or a thrown error if it was rejected or timed out.
func value(of promise: QXPromise, timeout: Duration = defaultTestTimeout) async throws -> PromiseValue {
    try await outcome(of: promise, timeout: timeout).get()
}

/// The error `promise` was rejected with; records an issue if it was fulfilled.
func error(
    of promise: QXPromise,
    timeout: Duration = defaultTestTimeout,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> (any Error)? {
    rejection(of: try await outcome(of: promise, timeout: timeout), sourceLocation: sourceLocation)
}
