public import AYPromises
import Dispatch
public import PromiseInterface

/// The shared protocol, mapped onto AY's own primitives.
///
/// `deferred`'s `resolve` is AY's resolution procedure (the `AYResolve` that
/// `AYPromise.withResolve(_:)` hands out), and `then(onFulfilled:onRejected:)` is the `chain`
/// primitive every AY operator is built on, with the A+ callbacks on the main queue (the suite's
/// timing depends on it). A+ `then` takes both callbacks at once where AY splits them into `then`
/// and `catch`; A+ passes a fulfilment value to the next promise through a callback's return
/// value, exactly as AY's blocks do.
extension AYPromise: APlusPromise {
    /// A pending promise with AY's resolve callback and a reject function; the first call to
    /// either counts.
    public static func deferred() -> Deferred<AYPromise> {
        let promise = AYPromise(pending: ())
        return Deferred(
            promise: promise,
            resolve: { value in promise.resolveFirst(value, on: .main) },
            reject: { error in promise.rejectFirst(error) }
        )
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
    public func then(
        onFulfilled: (@Sendable (PromiseValue) throws -> PromiseValue)?,
        onRejected: (@Sendable (any Error) throws -> PromiseValue)?
    ) -> AYPromise {
        chain(on: .main) { outcome, next in
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

    /// The same as `AYPromise.state`.
    public var currentState: PromiseState { state }

    /// Whether `error` is `AYPromiseError.cycle`.
    public static func isCycleError(_ error: any Error) -> Bool {
        (error as? AYPromiseError) == .cycle
    }
}
