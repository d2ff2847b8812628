public import Dispatch
import PromiseRuntime

/// A unit of asynchronous work that does nothing until started and can be cancelled at any time:
/// the QN design's answer to the two things the FBPromise talk says promises cannot do (cancel, and tell how
/// far along they are).
///
/// A task is `ready` until ``start(on:completion:)-(DispatchQueue,_)``; then `running`; then exactly once
/// `succeeded`, `failed` or `cancelled`. Every callback registered with `start` receives that one
/// outcome exactly once.
///
/// You do not subclass `QNAsyncTask`; you make one of its kinds:
/// - ``QNAsyncBlockTask``: a block that does the work and returns a result or throws;
/// - ``QNAsyncManualTask``: work completed from outside, to wrap callback APIs;
/// - ``QNAsyncSerialTask``: sub-tasks one after another, each built from the previous outcome;
/// - ``QNAsyncParallelTask``: sub-tasks at once, with an all or first-success policy.
///
/// ```swift
/// let task = QNAsyncBlockTask<Int>(taskID: "count") { task in
///     try task.checkCancellation()
///     return 42
/// }
/// task.start(success: { print($0) }, failure: { print($0) })
/// task.cancel()   // at any time; a no-op once finished
/// ```
///
/// ## Threading
/// All state lives in one small state machine guarded by one lock per task; it is not generic
/// (it holds the outcome with its result erased), so a task's own code, which runs unspecialised
/// (behind the overrides of `main()` and `didCancel()`), makes no generic-metadata lookup to
/// lock, finish or deliver. Callbacks,
/// cancellation handlers and progress monitors run after the lock is released; callbacks and
/// monitors are dispatched onto the queue they were registered with (the main queue by
/// default), never called on the stack of the code that started, finished or cancelled the task.
/// Every method may be called from any thread.
///
/// ## Lifetime
/// A running task is kept alive by its work (a block in a queue, the closure that will complete a
/// manual task, a sub-task's callback). A task freed before it finished (no code can complete it
/// any more) drops its callbacks without calling them, like a promise nobody resolves.
public class QNAsyncTask<Result: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: the only mutable state is `machine`, guarded by its PromiseMutex;
    // subclasses add only immutable properties, state inside a PromiseMutex of their own, stored
    // properties guarded by `machine`'s lock (a continuation's step and the tasks it waits for),
    // or a property only `main()` and `deinit` touch (a manual task's start block, a block
    // task's work: the state machine lets `main()` run at most once).

    /// The task's ID: the one given at creation, or a generated `"QNAsyncTask-<n>"`, unique
    /// and, once asked for, the same every time.
    ///
    /// A serial task's sub-states carry their sub-task's ID, so a progress monitor can tell which
    /// step finished. The ID is kept out of line (`QNTaskExtras`) and a generated one is made
    /// the first time it is asked for: most tasks never need one.
    public final var taskID: String { machine.withLock { $0.taskID() } }

    /// Guards the whole state machine: stage, outcome, observers, and the out-of-line rest
    /// (cancellation handlers, monitors, ID). Not generic (the outcome is stored erased): see
    /// ``QNTaskStateMachine``. Subclasses may keep state beside it that the same lock guards (a
    /// continuation's step): one lock for everything a task does.
    let machine: PromiseMutex<QNTaskStateMachine>

    #if DEBUG
        /// Where the task was made and whom to tell if it is freed while running
        /// (``PendingPromiseLeakCheck``); debug builds only.
        private let leakTracker = PendingPromiseLeakCheck.track()
    #endif

    /// - Parameter taskID: The given ID, or `nil` for a generated one.
    init(identifier taskID: String?) {
        machine = PromiseMutex(QNTaskStateMachine(taskID: taskID))
    }

    deinit {
        #if DEBUG
            if let leakTracker, machine.withLock({ $0.isRunning }) { leakTracker.reportGivenUp(self) }
        #endif
        guard let abandoned = machine.withLock({ $0.abandon() }) else { return }
        // The callbacks of a task that never finished may hold the next tasks of a long chain
        // (each waiting for this one): freed here, that chain would be freed recursively.
        releaseIteratively(consume abandoned)
    }

    /// Starts the work. Subclasses override it; it runs once, outside the lock, on the thread
    /// that called `start`.
    func main() {}

    /// Called once when the task is cancelled (before it started or while running), outside the
    /// lock, before its cancellation handlers, on the cancelling thread's drain. Subclasses that
    /// wait for another task override it to cancel that task without registering a handler (a
    /// closure) per task.
    func didCancel() {}

    /// The task this one waits for, for the cycle check, when it recorded none
    /// (``recordAwaited(_:)``): `nil` here; a continuation overrides it with its source or the
    /// task it adopted, which it holds anyway, so that a typed link records nothing on its hot
    /// path.
    var unrecordedAwaited: (any QNAnyAsyncTask)? { nil }

    // MARK: - Starting

    /// Starts the task and calls `completion` with its outcome, once, on `queue`.
    ///
    /// Nothing happens until a task is started. Starting is idempotent: the work runs on the
    /// first call only; a later call (or a start after the task finished) only registers its
    /// `completion`, which receives the same single outcome. A task cancelled before it started
    /// never runs its work and reports `.cancelled`.
    ///
    /// - Parameters:
    ///   - queue: Where `completion` runs. Defaults to the main queue.
    ///   - completion: Called exactly once with `.succeeded`, `.failed` or `.cancelled`, always
    ///     asynchronously (never before `start` returns).
    public final func start(
        on queue: DispatchQueue = .main,
        completion: @escaping @Sendable (QNTaskOutcome<Result>) -> Void
    ) {
        start(observer: Self.typedObserver(on: queue, completion))
    }

    /// Starts the task with separate success and failure callbacks, as the original's
    /// `startWithSuccess:fail:`.
    ///
    /// Exactly one of the two is called, once, on `queue`. Cancellation is reported to `failure`
    /// as `CancellationError`; use ``start(on:completion:)-(DispatchQueue,_)`` to tell it apart from a failure.
    ///
    /// - Parameters:
    ///   - queue: Where the callbacks run. Defaults to the main queue.
    ///   - success: Called with the result.
    ///   - failure: Called with the error, or `CancellationError` if the task was cancelled.
    public final func start(
        on queue: DispatchQueue = .main,
        success: @escaping @Sendable (Result) -> Void,
        failure: @escaping @Sendable (any Error) -> Void
    ) {
        // One closure, as `start(on:completion:)` makes, not one wrapped in another.
        start(
            observer: QNTaskObserver(queue: queue) { outcome in
                switch outcome {
                case .succeeded(let value): success(qnUnerased(value))
                case .failed(let error): failure(error)
                case .cancelled: failure(CancellationError())
                }
            })
    }

    /// Starts the task without a callback (observe it with ``observe(on:completion:)-(DispatchQueue,_)``).
    public final func start() {
        start(observer: nil)
    }

    /// The one place a task starts: the lock computes the action, the work starts after it.
    final func start(observer: consuming QNTaskObserver?) {
        var observer = observer
        let action = machine.withLock { $0.start(&observer) }
        switch action {
        case .run: main()
        case .stored: break
        case .deliver(let outcome): observer?.notify(outcome)
        }
    }

    /// Registers `completion` for the outcome without starting the task.
    ///
    /// - Parameters:
    ///   - queue: Where `completion` runs. Defaults to the main queue.
    ///   - completion: Called exactly once, asynchronously, when the task finishes (at once, in a
    ///     hop, if it already has).
    public final func observe(
        on queue: DispatchQueue = .main,
        completion: @escaping @Sendable (QNTaskOutcome<Result>) -> Void
    ) {
        observe(observer: Self.typedObserver(on: queue, completion))
    }

    /// The observer for a typed callback: the core hands observers the outcome erased, so this
    /// one casts it back. One closure, which holds `completion`; callers that adapt the outcome
    /// further (the main-actor variants, `Thenable`) cast in their own closure instead of
    /// wrapping this one.
    static func typedObserver(
        on queue: DispatchQueue?,
        _ completion: @escaping @Sendable (QNTaskOutcome<Result>) -> Void
    ) -> QNTaskObserver {
        QNTaskObserver(queue: queue) { outcome in completion(outcome.typed()) }
    }

    final func observe(observer: QNTaskObserver) {
        let action = machine.withLock { $0.observe(observer) }
        if case .deliver(let outcome) = action { observer.notify(outcome) }
    }

    // MARK: - Finishing

    /// Succeeds with `value` unless the task already finished (the first outcome wins).
    ///
    /// Finishing takes a value or an error, not a `QNTaskOutcome<Result>`: erasing a `Result` for
    /// the core needs only `Result`'s own metadata, where a `QNTaskOutcome<Result>` made in
    /// unspecialised code is a generic-metadata lookup.
    ///
    /// - Returns: Whether this call finished the task.
    @discardableResult
    final func finish(succeeding value: Result) -> Bool {
        finishErased(.succeeded(value))
    }

    /// Fails with `error` unless the task already finished.
    ///
    /// - Returns: Whether this call finished the task.
    @discardableResult
    package final func finish(failing error: any Error) -> Bool {
        finishErased(.failed(error))
    }

    /// Finishes the task with an erased outcome, whose value must be a `Result`.
    @discardableResult
    final func finishErased(_ outcome: QNAnyOutcome) -> Bool {
        let action = machine.withLock { $0.finish(outcome) }
        switch consume action {
        case .notify(var released):
            let observers = released.observers.take()
            if !observers.isEmpty { deliver(outcome, to: observers) }
            return true
        case .ignore:
            return false
        }
    }

    /// Tells `observers` the outcome, in registration order, then those registered while they
    /// were told (queued by the state machine, which is delivering meanwhile), in a loop until
    /// the state machine says none are left and stops delivering: the order of registration
    /// holds whichever thread finishes the task. Called only when the machine entered that state.
    private func deliver(_ outcome: QNAnyOutcome, to observers: consuming QNTaskStateMachine.Observers) {
        var batch = consume observers
        while true {
            (consume batch).notifyAll(outcome)
            let next = machine.withLock { $0.nextObservers() }
            guard !next.isEmpty else { return }
            batch = next
        }
    }

    /// Fails the task with `error`, unless it already finished; a `CancellationError` cancels it
    /// instead (and runs its cancellation handlers). The `fail(_:)` of the tasks completed by
    /// their holder (manual tasks, continuations).
    ///
    /// - Returns: Whether this call finished the task.
    final func failOrCancel(_ error: any Error) -> Bool {
        if error is CancellationError { return cancelReportingWhetherFinished() }
        return finish(failing: error)
    }

    // MARK: - Cancelling

    /// Cancels the task, at any time, from any thread.
    ///
    /// - Before start: the work never runs; `start` reports `.cancelled`.
    /// - While running: the task finishes as `.cancelled` at once; the cancellation handlers
    ///   (``onCancel(_:)``) run, in registration order, on the calling thread, before `cancel`
    ///   returns; a block task's block sees ``isCancelled`` and its result is ignored; a serial or
    ///   parallel task cancels its running sub-tasks.
    /// - Called from inside a cancellation handler, or from work that a continuation's start runs
    ///   (a source's `main`, a manual task's start block), `cancel` marks its task cancelled at
    ///   once but leaves that task's handlers to the outermost drain on the thread, which runs
    ///   them in a loop after its own: cancelling or starting the end of a chain of any length
    ///   never deepens the stack.
    /// - After the task finished, or a second time: nothing happens.
    public final func cancel() {
        cancelReportingWhetherFinished()
    }

    /// ``cancel()``, telling whether this call cancelled the task (`false` if it had finished).
    @discardableResult
    final func cancelReportingWhetherFinished() -> Bool {
        let action = machine.withLock { $0.cancel() }
        guard case .cancelled(let released, let delivering) = action else { return false }
        // The task is cancelled from here on. A handler may cancel another task (a serial task's
        // handler cancels its running sub-task, down a whole `then` chain): the drain runs those
        // nested cancellations' side effects in a loop, so the stack stays flat.
        QNDrain.run {
            self.didCancel()
            for handler in released.cancelHandlers { handler() }
            if delivering { self.deliver(.cancelled, to: released.observers) }
        }
        return true
    }

    /// Whether the task was cancelled. Work checks it to stop early.
    public final var isCancelled: Bool { state == .cancelled }

    /// Throws `CancellationError` if the task was cancelled, for work that prefers `try`.
    public final func checkCancellation() throws {
        if isCancelled { throw CancellationError() }
    }

    /// Registers cleanup to run if the task is cancelled: cancel a network request, close a file.
    ///
    /// The handler runs at most once, on the thread that calls ``cancel()``, after the task is
    /// marked cancelled. If the task is already cancelled it runs at once, on the calling thread
    /// (deferred to the end of the current cancellation if called from inside a cancellation
    /// handler); if the task succeeded or failed it is dropped unrun.
    public final func onCancel(_ handler: @escaping @Sendable () -> Void) {
        _ = addCancelHandler(handler)
    }

    /// ``onCancel(_:)`` that returns a token to remove the handler again, or `nil` if the handler
    /// was run at once or dropped.
    final func addCancelHandler(_ handler: @escaping @Sendable () -> Void) -> Int? {
        let action = machine.withLock { $0.addCancelHandler(handler) }
        switch action {
        case .stored(let token): return token
        case .callNow: QNDrain.run(handler)
        case .dropped: break
        }
        return nil
    }

    final func removeCancelHandler(_ token: Int) {
        let removed = machine.withLock { $0.removeCancelHandler(token) }
        _ = removed  // freed here, outside the lock
    }

    // MARK: - Progress

    /// Reports how far the work has got, as a fraction from 0 to 1, to the monitors registered
    /// with ``monitorProgress(on:_:)``.
    ///
    /// Values are clamped to 0...1; NaN is ignored. Only reports made while the task runs are
    /// delivered (each is dispatched to its monitor's queue, so one made just before the task
    /// finished may arrive just after). Any thread may report.
    public final func reportProgress(_ fraction: Double) {
        guard !fraction.isNaN else { return }
        let clamped = min(max(fraction, 0), 1)
        let monitors = machine.withLock { $0.monitorsForProgress() }
        for monitor in monitors {
            monitor.queue.async { monitor.callback(clamped) }
        }
    }

    /// Registers `monitor` to receive the task's progress reports on `queue`.
    ///
    /// Register before starting to see every report. A monitor registered after the task
    /// finished is never called.
    public final func monitorProgress(on queue: DispatchQueue = .main, _ monitor: @escaping @Sendable (Double) -> Void)
    {
        _ = machine.withLock { $0.addMonitor(QNProgressMonitor(queue: queue, callback: monitor)) }
    }

    // MARK: - Inspecting

    /// Where the task is in its life.
    public final var state: QNTaskState { machine.withLock { $0.state } }

    /// The outcome, or `nil` until the task finishes.
    public final var outcome: QNTaskOutcome<Result>? { machine.withLock { $0.outcome }?.typed() }
}

/// A task with its result type erased, so serial and parallel tasks, continuations and the
/// resolution procedure can hold tasks of any result type (a continuation holds its source so,
/// which keeps its lock's state free of generic types).
protocol QNAnyAsyncTask: AnyObject, Sendable {
    var taskID: String { get }
    func cancel()
    /// The task this one waits for, while it has not finished (see `recordAwaited(_:)`); a
    /// continuation that recorded none waits for its source, then for the task its step adopted.
    var awaitedTask: (any QNAnyAsyncTask)? { get }
    /// Starts the task (idempotent) and registers `observer` (if any) for its outcome, erased.
    func start(observer: QNTaskObserver?)
}

extension QNAsyncTask: QNAnyAsyncTask {
    /// Records that this task now waits for `task`, for the cycle check of the A+ surface.
    func recordAwaited(_ task: any QNAnyAsyncTask) {
        machine.withLock { $0.awaited = task }
    }

    /// What the task recorded last, or else what it waits for without recording
    /// (``unrecordedAwaited``), while it has not finished. Read by the cycle check only.
    var awaitedTask: (any QNAnyAsyncTask)? {
        if let recorded = machine.withLock({ $0.unfinishedAwaited }) { return recorded }
        return unrecordedAwaited
    }
}
