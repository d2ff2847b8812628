public import APlusSuite

/// The contract every design's promise type conforms to, so that one Promises/A+ suite and one
/// set of benchmarks can drive them all.
///
/// This is an adapter surface, not a fifth design: each design keeps its own native API, and an
/// adapter outside the design's module (the package's `DesignRegistry/Adapters/`) conforms its
/// promise type, so the adapter is not part of the design's public API. The conformance must not
/// implement the
/// resolution procedure itself: `resolve`, `resolved(_:)` and the values returned from `then`
/// callbacks go through the design's own procedure, which must adopt promises of its design,
/// assimilate any `Thenable` and reject a promise resolved with itself (the cycle error).
///
/// Threading: callbacks passed to ``then(onFulfilled:onRejected:)`` never run before `then`
/// returns (Promises/A+ 2.2.4). Conformances run them on the main queue, so the suite's timing on
/// that queue is deterministic.
public protocol APlusPromise: Thenable, AnyObject {
    /// Makes a pending promise and the functions that settle it.
    ///
    /// `resolve` and `reject` may be called any number of times, from any thread; only the first
    /// call counts.
    static func deferred() -> Deferred<Self>

    /// Makes a promise resolved with `value`: fulfilled with a plain value, or following a promise
    /// or thenable it is given (resolve semantics, not fulfil).
    static func resolved(_ value: PromiseValue) -> Self

    /// Makes a promise rejected with `reason`.
    static func rejected(_ reason: any Error) -> Self

    /// Registers callbacks and returns a new promise of the same design.
    ///
    /// - Parameters:
    ///   - onFulfilled: Called with the value once this promise is fulfilled; `nil` passes the value
    ///     through. Its result is resolved into the returned promise (a promise or thenable is
    ///     adopted); a throw rejects the returned promise.
    ///   - onRejected: Called with the reason once this promise is rejected; `nil` passes the
    ///     rejection through. Its result and throws are handled as for `onFulfilled`.
    /// - Returns: A new promise that settles with the outcome of whichever callback ran.
    func then(
        onFulfilled: (@Sendable (PromiseValue) throws -> PromiseValue)?,
        onRejected: (@Sendable (any Error) throws -> PromiseValue)?
    ) -> Self

    /// The current state, for tests and reports.
    var currentState: PromiseState { get }

    /// Whether `error` is the error this design rejects with when a promise is resolved with
    /// itself (Promises/A+ 2.3.1, the spec's `TypeError`).
    static func isCycleError(_ error: any Error) -> Bool
}

/// A pending promise together with the functions that settle it: the Promises/A+ suite's
/// `APlusDeferred`, so that the designs' conformances hand the suite what they make.
public typealias Deferred<Promise: APlusPromise> = APlusDeferred<Promise>
