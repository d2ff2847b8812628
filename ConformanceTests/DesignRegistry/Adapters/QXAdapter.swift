public import APlusSuite
import Dispatch
public import QXPromises
public import SharedPromiseTypes

/// QX as the Promises/A+ suite drives it, through the suite's own adapter protocol, as an outside
/// library's adapter does, on QX's own API.
///
/// `deferred` is `QXPromise.pending(on:)` with the resolver's `fulfill` (the design's resolution
/// procedure: QX promises observed, thenables assimilated, self-resolution the cycle error) and
/// `reject`; `then` is `QXPromise.chain(on:thenBlock:catchBlock:)`. Callbacks are pinned to the
/// main queue, not `QXPromise.defaultQueue`, so a test that changes the default cannot disturb
/// the suite's timing.
public enum QXAdapter: RegisteredAdapter {
    public static let moduleName = "QXPromises"
    public static let summary = "key-observation chaining through a KVO-like observable (QXPromise)"
    public static let features = DesignFeatures(
        values: "untyped", starts: "at once", cancels: "no", progress: "yes")

    public typealias PromiseUnderTest = QXPromise

    /// A pending promise with the functions that settle it: the design's resolution procedure.
    ///
    /// `resolve` is the resolver's `QXResolver.fulfill(_:)`: a `QXPromise` is observed through
    /// its `state` key, any other `Thenable` is assimilated once (its `then` is
    /// called on the main queue), resolving the promise with itself rejects with
    /// `QXPromiseError.cycle`, and anything else fulfils. `reject` rejects. Only the first call
    /// to either counts.
    ///
    /// - Returns: The promise (callback queue: main) and its two functions, callable from any thread.
    public static func deferred() -> APlusDeferred<QXPromise> {
        let (promise, resolver) = QXPromise.pending(on: .main)
        return APlusDeferred(promise: promise, resolve: resolver.fulfill, reject: resolver.reject)
    }

    /// A promise resolved with `value` through the resolution procedure (see `deferred()`): a
    /// promise or thenable is adopted, anything else fulfils at once.
    ///
    /// - Parameter value: The value, promise or thenable.
    /// - Returns: The promise; its callback queue is main.
    public static func resolved(_ value: PromiseValue) -> QXPromise {
        let (promise, resolver) = QXPromise.pending(on: .main)
        resolver.fulfill(value)
        return promise
    }

    /// A promise already rejected with `reason`.
    ///
    /// - Parameter reason: The error.
    /// - Returns: The promise; its callback queue is main.
    public static func rejected(_ reason: any Error) -> QXPromise {
        QXPromise(rejectedWith: reason, on: .main)
    }

    /// Promises/A+ `then`: a link that observes this promise's `state` and runs `onFulfilled` or
    /// `onRejected` on the main queue once it settles, never before this call returns (2.2.4).
    ///
    /// A `nil` callback passes that outcome through. What a callback returns resolves the link
    /// through the resolution procedure (see `deferred()`); a throw rejects it.
    ///
    /// - Parameters:
    ///   - onFulfilled: Called with the value, on the main queue.
    ///   - onRejected: Called with the error, on the main queue.
    /// - Returns: The link. It keeps itself alive until it settles.
    public static func then(
        _ promise: QXPromise,
        onFulfilled: (@Sendable (PromiseValue) throws -> PromiseValue)?,
        onRejected: (@Sendable (any Error) throws -> PromiseValue)?
    ) -> QXPromise {
        promise.chain(on: .main, thenBlock: onFulfilled, catchBlock: onRejected)
    }

    /// A foreign thenable as a `Thenable`, which QX's resolution procedure assimilates.
    public static func thenable(_ foreign: any APlusThenable) -> APlusValue { handingOver(foreign) }

    /// A foreign thenable whose `then` is a property, as a `PropertyThenable`, which the resolution
    /// procedure reads once.
    public static func propertyThenable(_ foreign: any APlusPropertyThenable) -> APlusValue { handingOver(foreign) }

    /// The state at this moment, read from the observable keys in one snapshot (a rejected
    /// state always comes with its error). Safe from any thread.
    public static func state(of promise: QXPromise) -> PromiseState {
        switch promise.outcome {
        case nil: return .pending
        case .fulfilled(let value): return .fulfilled(value)
        case .rejected(let error): return .rejected(error)
        }
    }

    /// Whether `error` is the error a promise resolved with itself is rejected with:
    /// `QXPromiseError.cycle`.
    ///
    /// - Parameter error: An error a promise was rejected with.
    /// - Returns: `true` for `QXPromiseError.cycle`.
    public static func isCycleError(_ error: any Error) -> Bool {
        (error as? QXPromiseError) == .cycle
    }
}
