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
    public static func deferred() -> Deferred<QNAsyncSerialTask<PromiseValue>> {
        let resolver = QNAsyncManualTask<PromiseValue>(taskID: "deferred")
        let promise = QNAsyncSerialTask<PromiseValue>(
            taskID: nil,
            queue: .main,
            internalBuildBlocks: [{ _, _ in .required(resolver) }],
            progressMonitor: nil,
            resultGenerate: qnLastResult
        )
        promise.start()
        let owner = ObjectIdentifier(promise)
        return Deferred(
            promise: promise,
            resolve: { value in qnResolve(resolver, with: value, owner: owner) },
            reject: { error in resolver.failKeepingError(error) }
        )
    }

    public static func resolved(_ value: PromiseValue) -> QNAsyncSerialTask<PromiseValue> {
        let deferred = deferred()
        deferred.resolve(value)
        return deferred.promise
    }

    public static func rejected(_ reason: any Error) -> QNAsyncSerialTask<PromiseValue> {
        let deferred = deferred()
        deferred.reject(reason)
        return deferred.promise
    }

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
        next.start()
        return next
    }

    public var currentState: PromiseState {
        switch outcome {
        case nil: return .pending
        case .succeeded(let value): return .fulfilled(value)
        case .failed(let error): return .rejected(error)
        case .cancelled: return .rejected(CancellationError())
        }
    }

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

extension Swift.Result {
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
///   with itself (`owner`) fails with ``QNTaskError/cycle``.
/// - Any other ``Thenable`` is assimilated through `thenOnce`, called on a main-queue hop (a fresh
///   stack, never inside the caller's critical sections); what it resolves with is resolved again.
/// - Anything else succeeds the task.
func qnResolve(_ task: QNAsyncManualTask<PromiseValue>, with value: PromiseValue, owner: ObjectIdentifier) {
    if let adopted = value as? any QNAnyAsyncTask {
        guard ObjectIdentifier(adopted) != owner else {
            task.failKeepingError(QNTaskError.cycle)
            return
        }
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
