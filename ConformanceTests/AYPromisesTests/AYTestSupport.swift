import APlusSuite
import AYPromises
import DesignRegistry
import Dispatch
import Foundation
import TestSupport
import Testing

// AY-specific helpers over the shared `TestSupport` library. Every wait has a timeout, so a promise
// that never settles fails its test instead of stalling the run.

/// Waits for `promise` to settle, at most `timeout`; needs no queue to be serviced.
func outcome(
    of promise: AYPromise, timeout: Duration = defaultTestTimeout
) async throws -> Result<PromiseValue, any Error> {
    try await awaitOutcome("an AY promise", timeout: timeout) { try await promise.value }
}

/// The value of `promise`, or a thrown error if it was rejected or timed out.
func value(of promise: AYPromise, timeout: Duration = defaultTestTimeout) async throws -> PromiseValue {
    try await outcome(of: promise, timeout: timeout).get()
}

/// The error `promise` was rejected with; records an issue if it was fulfilled.
func error(
    of promise: AYPromise,
    timeout: Duration = defaultTestTimeout,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> (any Error)? {
    rejection(of: try await outcome(of: promise, timeout: timeout), sourceLocation: sourceLocation)
}

/// A pending promise and the functions that settle it (the adapter's
/// `deferred()`, whose `resolve` is AY's own resolution procedure).
func pending() -> APlusDeferred<AYPromise> {
    AYAdapter.deferred()
}

/// Runs `body` once the main queue has run every block queued on it before this call: lets a
/// test check that a main-queue block has not run yet without sleeping.
func afterMainQueueDrains() async {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.async { continuation.resume() }
    }
}

/// An error whose `localizedDescription` is its own words (`LocalizedError`).
struct LocalizedTestError: LocalizedError {
    var errorDescription: String? { "the input's own words" }
}
