public import APlusSuite
import Dispatch
import PromiseRuntime
public import QNTasks

/// The QN design's promise type as the shared protocol sees it: a started continuation of
/// dynamically typed values.
///
/// A task is not a promise (it is lazy and cancellable), so the adaptation is: a *started* task
/// acts as a promise, and `then` is a `QNAsyncContinuationTask` of the previous task whose step
/// runs the callback: one task and one hop per link.
public typealias QNPromise = QNAsyncContinuationTask<PromiseValue, PromiseValue>

/// QN as the Promises/A+ suite drives it, through the suite's own adapter protocol, as an outside
/// library's adapter does; its promise is `QNPromise`.
/// - `deferred()` is a started continuation of a `QNAsyncManualTask` that `resolve` completes
///   through the resolution procedure; the continuation passes its outcome on.
/// - `then` is a started continuation of the promise whose step runs `onFulfilled` or
///   `onRejected` on the main queue and resolves with what it returns.
///
/// Callbacks run on the main queue, always in a hop after `then` returned (Promises/A+ 2.2.4).
///
/// `resolved(_:)` and `rejected(_:)` are the suite's defaults: a `deferred()` promise, resolved or
/// rejected (so a `CancellationError` reason stays a rejection, not a cancel).
public enum QNAdapter: RegisteredAdapter {
    public static let moduleName = "QNTasks"
    public static let summary = "cancellable, lazily started tasks (QNAsyncTask)"
    public static let features = DesignFeatures(
        values: "typed", starts: "on `start`", cancels: "yes", progress: "yes")

    public typealias PromiseUnderTest = QNPromise

    /// Makes a pending promise and the two functions that settle it.
    ///
    /// The promise is a started continuation of a `QNAsyncManualTask`; `resolve` runs the
    /// resolution procedure on that task (adopting a QN task or assimilating any `Thenable`; the
    /// promise itself fails it with `QNTaskError.cycle`), `reject` fails it. Only the first call
    /// of either function counts, whatever it is: once `resolve` was given a pending task or
    /// thenable, a later `resolve` or `reject` is ignored even though the promise is still
    /// pending. Both functions may be called from any thread.
    ///
    /// ```swift
    /// let deferred = QNAdapter.deferred()
    /// client.get(url) { data in deferred.resolve(data) }
    /// QNAdapter.then(deferred.promise, onFulfilled: { show($0) }, onRejected: nil)
    /// ```
    ///
    /// - Returns: The promise with its `resolve` and `reject` functions.
    public static func deferred() -> APlusDeferred<QNPromise> {
        // No task ID: a given one is kept out of line, one allocation more per promise.
        let resolver = QNAsyncManualTask<PromiseValue>()
        let promise = QNPromise(source: resolver, queue: .main) { outcome, promise in
            switch outcome {
            case .succeeded(let value): promise.succeed(value)
            case .failed(let error): promise.finish(failing: error)
            case .cancelled: promise.finish(failing: CancellationError())
            }
        }
        // The cycle check follows the promise to the resolver through the continuation's source
        // (its `unrecordedAwaited`) from now on, not from when the resolver finishes, so that a
        // cycle closed right away (`a.resolve(b.promise)`, `b.resolve(a.promise)`) is seen.
        promise.start()
        let owner = ObjectIdentifier(promise)
        // One gate for both functions: the manual task's own "first outcome wins" is not enough,
        // because resolving with a pending task or thenable leaves it unfinished, and a later
        // resolve or reject would then win.
        let gate = FirstCallGate()
        return APlusDeferred(
            promise: promise,
            resolve: { value in
                if gate.claim() { qnResolve(resolver, with: value, owner: owner) }
            },
            reject: { error in
                if gate.claim() { resolver.finish(failing: error) }
            }
        )
    }

    /// Promises/A+ `then`: a new promise settled by `onFulfilled` or `onRejected`.
    ///
    /// The new promise is a started continuation of `promise` whose step runs the matching
    /// callback and resolves with what it returns (a task or thenable is adopted; a throw
    /// rejects). A missing callback passes the value or reason through.
    ///
    /// ```swift
    /// let doubled = QNAdapter.then(promise, onFulfilled: { ($0 as? Int ?? 0) * 2 }, onRejected: nil)
    /// ```
    ///
    /// Cancelling the returned promise (it is a task) cancels `promise` too while it is pending,
    /// since it is the task the continuation waits for. The callbacks run on the main queue,
    /// always after `then` returned (2.2.4), in the order the `then`s were called on `promise`
    /// (2.2.6).
    ///
    /// - Parameters:
    ///   - promise: The promise to observe.
    ///   - onFulfilled: Called with the value; `nil` fulfils the new promise with it.
    ///   - onRejected: Called with the reason (`CancellationError` if `promise` was cancelled);
    ///     `nil` rejects the new promise with it.
    /// - Returns: The new, started promise.
    public static func then(
        _ promise: QNPromise,
        onFulfilled: (@Sendable (PromiseValue) throws -> PromiseValue)?,
        onRejected: (@Sendable (any Error) throws -> PromiseValue)?
    ) -> QNPromise {
        let next = QNPromise(source: promise, queue: .main) { outcome, next in
            let owner = ObjectIdentifier(next)
            // The step already runs on the main queue, in a hop after `then` returned, so the
            // callback runs right here.
            do {
                switch outcome {
                case .succeeded(let value):
                    guard let onFulfilled else {
                        next.succeed(value)
                        return
                    }
                    qnResolve(next, with: try onFulfilled(value), owner: owner)
                case .failed, .cancelled:
                    let error = outcome.result.qnError
                    guard let onRejected else {
                        next.finish(failing: error)
                        return
                    }
                    qnResolve(next, with: try onRejected(error), owner: owner)
                }
            } catch {
                next.finish(failing: error)
            }
        }
        next.start()  // the cycle check follows `next` to this promise, its source, as in `deferred()`
        return next
    }

    /// A foreign thenable as a `Thenable`, which QN's resolution procedure assimilates.
    public static func thenable(_ foreign: any APlusThenable) -> APlusValue { handingOver(foreign) }

    /// A foreign thenable whose `then` is a property, as a `PropertyThenable`, which the resolution
    /// procedure reads once.
    public static func propertyThenable(_ foreign: any APlusPropertyThenable) -> APlusValue { handingOver(foreign) }

    /// The promise's state now: pending until the task finishes, then fulfilled with its result
    /// or rejected with its error; a cancelled task reads as rejected with `CancellationError`.
    ///
    /// Any thread may read it; the answer may be out of date as soon as it is returned.
    public static func state(of promise: QNPromise) -> PromiseState {
        switch promise.outcome {
        case nil: return .pending
        case .succeeded(let value): return .fulfilled(value)
        case .failed(let error): return .rejected(error)
        case .cancelled: return .rejected(CancellationError())
        }
    }

    /// Whether `error` is the one this design rejects with when a promise is resolved with itself
    /// (Promises/A+ 2.3.1): `QNTaskError.cycle`.
    ///
    /// - Parameter error: A rejection reason.
    /// - Returns: `true` for `QNTaskError.cycle`.
    public static func isCycleError(_ error: any Error) -> Bool {
        (error as? QNTaskError) == .cycle
    }
}

// Constrained to `any Error`: in an unconstrained extension `Failure` is generic, and returning it
// as `any Error` boxes the existential once more, so an error passed down a chain was nested one
// box per link and a cast (`as? TestError`) recursed through 100,000 boxes and overflowed the stack.
extension Swift.Result where Failure == any Error {
    fileprivate var qnError: any Error {
        if case .failure(let error) = self { return error }
        return QNTaskError.invalidArgument("not a failure")
    }
}
