import Dispatch
public import PromiseInterface

/// The QN design's promise type as the shared protocol sees it: a started serial task of
/// dynamically typed values.
///
/// A task is not a promise (it is lazy and cancellable), so the adaptation is: a *started* task
/// acts as a promise, and `then` composes a serial task of two steps, the previous task (optional,
/// so a failure reaches `onRejected`) followed by a step that runs the callback.
public typealias QNPromise = QNAsyncSerialTask<PromiseValue>

extension QNAsyncTask: Thenable {
    /// Lets any design's resolution procedure adopt this task: starts it (if it has not started)
    /// and hands its outcome over on the main queue. A cancelled task rejects with
    /// `CancellationError`.
    public func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) {
        start(on: .main) { outcome in
            switch outcome.result {
            case .success(let value): resolvePromise(qnPromiseValue(value))
            case .failure(let error): rejectPromise(error)
            }
        }
    }
}

/// The shared protocol on ``QNPromise``.
///
/// `QNAsyncTask` is a class hierarchy whose base cannot meet `APlusPromise`'s `Self` requirements
/// (`deferred() -> Deferred<Self>`, `then -> Self`), so the protocol is met by one final type: the
/// serial task of `PromiseValue`.
/// - `deferred()` is a started serial task whose one step is a ``QNAsyncManualTask`` that
///   `resolve` completes through the resolution procedure.
/// - `then` is a serial task: the previous task as an optional step, then a step built from its
///   sub-state that runs `onFulfilled` or `onRejected` on the main queue and resolves with what it
///   returns.
///
/// Callbacks run on the main queue, always in a hop after `then` returned (Promises/A+ 2.2.4).
extension QNAsyncSerialTask: APlusPromise where Result == PromiseValue {
    /// Makes a pending promise and the two functions that settle it.
    ///
    /// The promise is a started serial task whose one step is a ``QNAsyncManualTask``; `resolve`
    /// runs the resolution procedure on that step (adopting a QN task or assimilating any
    /// `Thenable`; the promise itself fails it with ``QNTaskError/cycle``), `reject` fails it.
    /// Only the first call of either function counts, whatever it is: once `resolve` was given a
    /// pending task or thenable, a later `resolve` or `reject` is ignored even though the promise
    /// is still pending. Both functions may be called from any thread.
    ///
    /// ```swift
    /// let deferred = QNPromise.deferred()
    /// client.get(url) { data in deferred.resolve(data) }
    /// deferred.promise.then(onFulfilled: { show($0) }, onRejected: nil)
    /// ```
    ///
    /// - Returns: The promise with its `resolve` and `reject` functions.
    public static func deferred() -> Deferred<QNAsyncSerialTask<PromiseValue>> {
        let resolver = QNAsyncManualTask<PromiseValue>(taskID: "deferred")
        let promise = QNAsyncSerialTask<PromiseValue>(
            taskID: nil,
            queue: .main,
            internalBuildBlocks: [{ _, _ in .required(resolver) }],
            progressMonitor: nil,
            resultGenerate: qnLastResult
        )
        // Recorded now, not when the first step runs (a main-queue hop later), so that a cycle
        // closed right away (`a.resolve(b.promise)`, `b.resolve(a.promise)`) is seen.
        promise.recordAwaited(resolver)
        promise.start()
        let owner = ObjectIdentifier(promise)
        // One gate for both functions: the manual task's own "first outcome wins" is not enough,
        // because resolving with a pending task or thenable leaves it unfinished, and a later
        // resolve or reject would then win.
        let gate = FirstCallGate()
        return Deferred(
            promise: promise,
            resolve: { value in
                if gate.claim() { qnResolve(resolver, with: value, owner: owner) }
            },
            reject: { error in
                if gate.claim() { resolver.failKeepingError(error) }
            }
        )
    }

    /// Makes a promise resolved with `value` (through the resolution procedure, so a task or a
    /// thenable is adopted rather than fulfilled with).
    ///
    /// - Parameter value: The value, task or thenable.
    /// - Returns: A started promise; it is fulfilled in a main-queue hop at the earliest.
    public static func resolved(_ value: PromiseValue) -> QNAsyncSerialTask<PromiseValue> {
        let deferred = deferred()
        deferred.resolve(value)
        return deferred.promise
    }

    /// Makes a promise rejected with `reason`.
    ///
    /// A `CancellationError` reason stays a rejection: the promise is failed, not cancelled.
    ///
    /// - Parameter reason: The rejection reason.
    /// - Returns: A started promise; it is rejected in a main-queue hop at the earliest.
    public static func rejected(_ reason: any Error) -> QNAsyncSerialTask<PromiseValue> {
        let deferred = deferred()
        deferred.reject(reason)
        return deferred.promise
    }

    /// Promises/A+ `then`: a new promise settled by `onFulfilled` or `onRejected`.
    ///
    /// The new promise is a started serial task of two steps: this promise as an optional step,
    /// then a step that runs the matching callback and resolves with what it returns (a task or
    /// thenable is adopted; a throw rejects). A missing callback passes the value or reason
    /// through.
    ///
    /// ```swift
    /// let doubled = promise.then(onFulfilled: { ($0 as? Int ?? 0) * 2 }, onRejected: nil)
    /// ```
    ///
    /// Cancelling the returned promise (it is a task) cancels this one too, since it is the
    /// serial task's running sub-task. The callbacks run on the main queue, always after `then`
    /// returned (2.2.4), in the order the `then`s were called on this promise (2.2.6).
    ///
    /// - Parameters:
    ///   - onFulfilled: Called with the value; `nil` fulfils the new promise with it.
    ///   - onRejected: Called with the reason (`CancellationError` if this task was cancelled);
    ///     `nil` rejects the new promise with it.
    /// - Returns: The new, started promise.
    public func then(
        onFulfilled: (@Sendable (PromiseValue) throws -> PromiseValue)?,
        onRejected: (@Sendable (any Error) throws -> PromiseValue)?
    ) -> QNAsyncSerialTask<PromiseValue> {
        let previous = self
        let next = QNAsyncSerialTask<PromiseValue>(
            taskID: nil,
            queue: .main,
            internalBuildBlocks: [
                // Optional, so a rejection reaches the second step instead of failing the task.
                { _, _ in .optional(previous) },
                { parent, subState in
                    let owner = ObjectIdentifier(parent)
                    let outcome = subState?.outcome ?? .failed(QNTaskError.invalidArgument("missing first step"))
                    // The build block already runs on the main queue, in a hop after `then`
                    // returned, so the callback runs right here.
                    let step = QNAsyncManualTask<PromiseValue>(taskID: "then") { step in
                        do {
                            switch outcome {
                            case .succeeded(let value):
                                let value = qnPromiseValue(value)
                                guard let onFulfilled else { return step.succeedValue(value) }
                                qnResolve(step, with: try onFulfilled(value), owner: owner)
                            case .failed, .cancelled:
                                let error = outcome.result.qnError
                                guard let onRejected else { return step.failKeepingError(error) }
                                qnResolve(step, with: try onRejected(error), owner: owner)
                            }
                        } catch {
                            step.failKeepingError(error)
                        }
                    }
                    return .required(step)
                },
            ],
            progressMonitor: nil,
            resultGenerate: qnLastResult
        )
        next.recordAwaited(previous)  // as in `deferred()`: before the first step's hop
        next.start()
        return next
    }

    /// The promise's state now: pending until the task finishes, then fulfilled with its result
    /// or rejected with its error; a cancelled task reads as rejected with `CancellationError`.
    ///
    /// Any thread may read it; the answer may be out of date as soon as it is returned.
    public var currentState: PromiseState {
        switch outcome {
        case nil: return .pending
        case .succeeded(let value): return .fulfilled(value)
        case .failed(let error): return .rejected(error)
        case .cancelled: return .rejected(CancellationError())
        }
    }

    /// Whether `error` is the one this design rejects with when a promise is resolved with itself
    /// (Promises/A+ 2.3.1): ``QNTaskError/cycle``.
    ///
    /// - Parameter error: A rejection reason.
    /// - Returns: `true` for ``QNTaskError/cycle``.
    public static func isCycleError(_ error: any Error) -> Bool {
        (error as? QNTaskError) == .cycle
    }
}

extension QNAsyncManualTask where Result == PromiseValue {
    fileprivate func succeedValue(_ value: PromiseValue) {
        succeed(value)
    }

    /// Fails with exactly `error`: unlike ``fail(_:)``, a `CancellationError` reason is kept as a
    /// rejection reason (a promise rejected with it is rejected, not cancelled).
    fileprivate func failKeepingError(_ error: any Error) {
        finish(.failed(error))
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

/// The serial task's result for the A+ surface: the last sub-task's result.
@Sendable
private func qnLastResult(_ subStates: [QNAsyncSerialTaskSubState]) throws -> PromiseValue {
    guard let last = subStates.last else { throw QNTaskError.invalidArgument("a promise step produced no sub-task") }
    if case .succeeded(let value) = last.outcome { return qnPromiseValue(value) }
    throw last.outcome.result.qnError
}

/// A task's result as a `PromiseValue`, without wrapping a `PromiseValue` in a second optional.
func qnPromiseValue<Value: Sendable>(_ value: Value) -> PromiseValue {
    if let optional = value as? any QNPromiseValueOptional { return optional.flattened }
    return value
}

/// Lets ``qnPromiseValue(_:)`` recognise a `PromiseValue` hidden in a generic or existential value.
private protocol QNPromiseValueOptional {
    var flattened: PromiseValue { get }
}

extension Optional: QNPromiseValueOptional where Wrapped == any Sendable {
    fileprivate var flattened: PromiseValue { self }
}

/// The resolution procedure (Promises/A+ 2.3) for a manual task standing in for a promise.
///
/// - A QN task is adopted: started (if it has not started) and followed. Resolving a promise
///   with itself (`owner`), or with a task that waits for it through the tasks it waits for
///   (``AdoptionCycle``), fails with ``QNTaskError/cycle``.
/// - Any other `Thenable` is assimilated through `thenOnce`, called on a main-queue hop (a fresh
///   stack, never inside the caller's critical sections); what it resolves with is resolved again.
/// - Anything else succeeds the task.
func qnResolve(_ task: QNAsyncManualTask<PromiseValue>, with value: PromiseValue, owner: ObjectIdentifier) {
    if let adopted = value as? any QNAnyAsyncTask {
        // The promise itself, or a task that waits for it through the tasks it waits for.
        let closesCycle = AdoptionCycle.wouldClose(adopting: adopted as AnyObject, by: owner) { task in
            (task as? any QNAnyAsyncTask)?.awaitedTask.map { $0 as AnyObject }
        }
        guard !closesCycle else {
            task.failKeepingError(QNTaskError.cycle)
            return
        }
        task.recordAwaited(adopted)
        adopted.startErased(on: .main) { outcome in
            switch outcome {
            case .succeeded(let value): task.succeed(qnPromiseValue(value))
            case .failed(let error): task.failKeepingError(error)
            case .cancelled: task.failKeepingError(CancellationError())
            }
        }
    } else if let thenable = value as? any Thenable {
        DispatchQueue.main.async {
            thenable.thenOnce(
                resolvePromise: { value in qnResolve(task, with: value, owner: owner) },
                rejectPromise: { error in task.failKeepingError(error) }
            )
        }
    } else {
        task.succeed(value)
    }
}
