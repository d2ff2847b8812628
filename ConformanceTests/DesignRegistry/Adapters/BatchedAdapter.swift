public import APlusSuite
public import BatchedPromises
import Dispatch
public import SharedPromiseTypes

/// The project's own design as the Promises/A+ suite drives it, through the suite's own adapter
/// protocol, on the untyped specialisation `Promise<PromiseValue, any Error>`.
///
/// Every requirement maps onto the design's own API: `deferred` is `Promise.makePending()` with
/// the resolver's resolution procedure (`Resolver.resolve(_:)` for untyped promises), and `then`
/// is the untyped two-callback `then(on:onFulfilled:onRejected:)`, on the main queue.
public enum BatchedAdapter: RegisteredAdapter {
    public static let moduleName = "BatchedPromises"
    public static let summary =
        "callbacks join the running drain of their queue, one dispatch per batch, one object per link (this project's own)"
    public static let features = DesignFeatures(
        values: "typed", starts: "at once", cancels: "yes", progress: "no")

    public typealias PromiseUnderTest = Promise<PromiseValue, any Error>

    /// A pending promise with the functions that settle it: `resolve` runs the resolution
    /// procedure, `reject` rejects. Only the first call to either counts.
    public static func deferred() -> APlusDeferred<Promise<PromiseValue, any Error>> {
        let (promise, resolver) = Promise<PromiseValue, any Error>.makePending()
        return APlusDeferred(
            promise: promise,
            resolve: { resolver.resolve($0) },
            reject: { resolver.reject($0) }
        )
    }

    /// A promise rejected with `reason`.
    public static func rejected(_ reason: any Error) -> Promise<PromiseValue, any Error> {
        Promise(failure: reason)
    }

    /// Promises/A+ `then`: the untyped two-callback `then`, on the main queue.
    ///
    /// - Parameters:
    ///   - onFulfilled: Maps the value; what it returns resolves the new promise.
    ///   - onRejected: Handles the error; what it returns resolves the new promise.
    /// - Returns: The new promise. Callbacks run on the main queue, after `then` returned.
    public static func then(
        _ promise: Promise<PromiseValue, any Error>,
        onFulfilled: (@Sendable (PromiseValue) throws -> PromiseValue)?,
        onRejected: (@Sendable (any Error) throws -> PromiseValue)?
    ) -> Promise<PromiseValue, any Error> {
        promise.then(on: .main, onFulfilled: onFulfilled, onRejected: onRejected)
    }

    /// A foreign thenable as a `Thenable`, which the resolution procedure assimilates.
    public static func thenable(_ foreign: any APlusThenable) -> APlusValue { handingOver(foreign) }

    /// A foreign thenable whose `then` is a property, as a `PropertyThenable`, which the
    /// resolution procedure reads once.
    public static func propertyThenable(_ foreign: any APlusPropertyThenable) -> APlusValue { handingOver(foreign) }

    /// The promise's state, read under its lock; a cancelled promise reads as rejected with
    /// `CancellationError`.
    public static func state(of promise: Promise<PromiseValue, any Error>) -> PromiseState {
        switch promise.currentOutcome {
        case nil: return .pending
        case .fulfilled(let value)?: return .fulfilled(value)
        case .rejected(let error)?: return .rejected(error)
        case .cancelled?: return .rejected(CancellationError())
        }
    }

    /// The promise's storage: the promise is a struct that refers to it.
    public static func storage(of promise: Promise<PromiseValue, any Error>) -> AnyObject { promise.storage }

    /// Whether `error` is the cycle error (a promise resolved with itself).
    public static func isCycleError(_ error: any Error) -> Bool { error is SelfResolutionError }
}
