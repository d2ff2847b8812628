public import APlusSuite
import Dispatch
public import FBLPromises
public import SharedPromiseTypes

/// FBL as the Promises/A+ suite drives it, through the suite's own adapter protocol, as an outside
/// library's adapter does; on the dynamically typed specialisation `FBLPromise<PromiseValue>`.
///
/// Every requirement maps onto FBL's own API: `deferred` is `FBLPromise.pending()` with
/// `FBLPromise.resolve(_:on:)` and `FBLPromise.reject(_:)`, and `then` is the
/// `FBLPromise.chain(on:chainedFulfill:chainedReject:)` primitive. Callbacks are pinned to the
/// main queue, not `FBLPromise.defaultQueue`, so a test that changes the default cannot disturb
/// the suite's timing.
public enum FBLAdapter: RegisteredAdapter {
    public static let moduleName = "FBLPromises"
    public static let summary = "GCD observers (google/promises' FBLPromise)"
    public static let features = DesignFeatures(
        values: "typed", starts: "at once", cancels: "no", progress: "no")

    public typealias PromiseUnderTest = FBLPromise<PromiseValue>

    /// A pending promise with the functions that settle it: `resolve` runs FBL's resolution
    /// procedure (`FBLPromise.resolve(_:on:)`, adopting on the main queue), `reject`
    /// rejects. Only the first call to either counts.
    public static func deferred() -> APlusDeferred<FBLPromise<PromiseValue>> {
        let promise = FBLPromise<PromiseValue>.pending()
        return APlusDeferred(
            promise: promise,
            resolve: { promise.resolve($0, on: .main) },
            reject: promise.reject
        )
    }

    /// A promise resolved with `value` through the resolution procedure (a promise or thenable is
    /// adopted; an error value rejects, as in the original).
    public static func resolved(_ value: PromiseValue) -> FBLPromise<PromiseValue> {
        let promise = FBLPromise<PromiseValue>.pending()
        promise.resolve(value, on: .main)
        return promise
    }

    /// A promise rejected with `reason`.
    public static func rejected(_ reason: any Error) -> FBLPromise<PromiseValue> {
        FBLPromise<PromiseValue>(reason)
    }

    /// Promises/A+ `then`: the `FBLPromise.chain(on:chainedFulfill:chainedReject:)` primitive
    /// with both callbacks; a `nil` callback passes the outcome on.
    ///
    /// - Parameters:
    ///   - onFulfilled: Maps the value; what it returns resolves the new promise.
    ///   - onRejected: Handles the error; what it returns resolves the new promise.
    /// - Returns: The new promise. Callbacks run on the main queue, after `then` returned.
    public static func then(
        _ promise: FBLPromise<PromiseValue>,
        onFulfilled: (@Sendable (PromiseValue) throws -> PromiseValue)?,
        onRejected: (@Sendable (any Error) throws -> PromiseValue)?
    ) -> FBLPromise<PromiseValue> {
        promise.chain(
            on: .main,
            chainedFulfill: { value in
                guard let onFulfilled else { return .value(value) }
                return .value(try onFulfilled(value))
            },
            chainedReject: { error in
                guard let onRejected else { return .error(error) }
                return .value(try onRejected(error))
            }
        )
    }

    /// A foreign thenable as a `Thenable`, which FBL's resolution procedure assimilates.
    public static func thenable(_ foreign: any APlusThenable) -> APlusValue { handingOver(foreign) }

    /// A foreign thenable whose `then` is a property, as a `PropertyThenable`, which the resolution
    /// procedure reads once.
    public static func propertyThenable(_ foreign: any APlusPropertyThenable) -> APlusValue { handingOver(foreign) }

    /// The promise's state, read under its lock.
    public static func state(of promise: FBLPromise<PromiseValue>) -> PromiseState {
        switch promise.result {
        case nil: return .pending
        case .success(let value): return .fulfilled(value)
        case .failure(let error): return .rejected(error)
        }
    }

    /// Whether `error` is `PromiseError.cycle` (a promise resolved with itself).
    public static func isCycleError(_ error: any Error) -> Bool {
        (error as? PromiseError) == .cycle
    }
}
