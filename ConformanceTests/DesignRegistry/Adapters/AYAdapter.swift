public import APlusSuite
public import AYPromises
import Dispatch
public import SharedPromiseTypes

/// AY as the Promises/A+ suite drives it, through the suite's own adapter protocol, as an outside
/// library's adapter does; every requirement maps onto AY's own primitives.
///
/// `deferred`'s `resolve` is AY's resolution procedure (the `AYResolve` that
/// `AYPromise.withResolve(_:)` hands out), and `then(onFulfilled:onRejected:)` is the `chain`
/// primitive every AY operator is built on, with the A+ callbacks on the main queue (the suite's
/// timing depends on it). A+ `then` takes both callbacks at once where AY splits them into `then`
/// and `catch`; A+ passes a fulfilment value to the next promise through a callback's return
/// value, exactly as AY's blocks do.
public enum AYAdapter: RegisteredAdapter {
    public static let moduleName = "AYPromises"
    public static let summary = "closure-property chaining, main-queue default (AYPromise)"
    public static let features = DesignFeatures(
        values: "untyped", starts: "at once", cancels: "no", progress: "no")

    public typealias PromiseUnderTest = AYPromise

    /// A pending promise (`AYPromise.pending()`) with its resolve callback and a reject function;
    /// the first call to either counts.
    public static func deferred() -> APlusDeferred<AYPromise> {
        let pending = AYPromise.pending()
        return APlusDeferred(
            promise: pending.promise, resolve: { value in pending.resolve(value) },
            reject: { error in pending.promise.rejectFirst(error) })
    }

    /// A new promise resolved with `value` through AY's resolution procedure (a thenable's `then`
    /// is called on the main queue).
    public static func resolved(_ value: PromiseValue) -> AYPromise {
        let promise = AYPromise(pending: ())
        promise.resolve(value, on: .main)
        return promise
    }

    /// A promise rejected with `reason`.
    public static func rejected(_ reason: any Error) -> AYPromise {
        AYPromise(settled: .failure(reason))
    }

    /// Both A+ callbacks at once, on the main queue, through the `chain` primitive every AY operator
    /// uses; a `nil` callback passes that outcome on. What a callback returns is resolved as an AY
    /// block's return value (so an `Error` value rejects).
    public static func then(
        _ promise: AYPromise,
        onFulfilled: (@Sendable (PromiseValue) throws -> PromiseValue)?,
        onRejected: (@Sendable (any Error) throws -> PromiseValue)?
    ) -> AYPromise {
        promise.chain(on: .main) { outcome, next in
            switch outcome {
            case .success(let value):
                guard let onFulfilled else { return next.settle(outcome) }
                next.resolve(returnedBy: { try onFulfilled(value) }, on: .main)
            case .failure(let error):
                guard let onRejected else { return next.settle(outcome) }
                next.resolve(returnedBy: { try onRejected(error) }, on: .main)
            }
        }
    }

    /// A foreign thenable as a `Thenable`, which AY's resolution procedure assimilates.
    public static func thenable(_ foreign: any APlusThenable) -> APlusValue { handingOver(foreign) }

    /// A foreign thenable whose `then` is a property, as a `PropertyThenable`, which the resolution
    /// procedure reads once.
    public static func propertyThenable(_ foreign: any APlusPropertyThenable) -> APlusValue { handingOver(foreign) }

    /// `AYPromise.state`.
    public static func state(of promise: AYPromise) -> PromiseState { promise.state }

    /// Whether `error` is `AYPromiseError.cycle`.
    public static func isCycleError(_ error: any Error) -> Bool {
        (error as? AYPromiseError) == .cycle
    }
}
