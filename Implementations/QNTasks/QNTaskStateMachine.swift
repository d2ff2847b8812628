import Dispatch
import PromiseRuntime
import Synchronization

/// A task's outcome with its result type erased: what the non-generic core stores and hands to
/// observers. The typed layer (``QNAsyncTask``) erases a result when it finishes and casts it back
/// for a typed callback.
typealias QNAnyOutcome = QNTaskOutcome<any Sendable>

/// A callback waiting for a task's outcome, with the queue it runs on. Not generic: it receives
/// the outcome erased, so storing and telling observers looks up no generic metadata.
struct QNTaskObserver: Sendable {
    /// Where the callback runs; `nil` runs it on the finishing thread (outside the lock), for
    /// bridges such as `await task.value` that must not depend on a queue being serviced.
    let queue: DispatchQueue?
    let callback: @Sendable (QNAnyOutcome) -> Void

    /// Delivers the outcome. With a queue this is always a hop, never a call on the caller's
    /// stack, so a chain of tasks that finish one another never nests.
    func notify(_ outcome: QNAnyOutcome) {
        if let queue {
            queue.async { callback(outcome) }
        } else {
            callback(outcome)
        }
    }
}

/// A progress callback with the queue it runs on.
struct QNProgressMonitor: Sendable {
    let queue: DispatchQueue
    let callback: @Sendable (Double) -> Void
}

/// What few tasks use, kept out of line so that every task does not carry it: a task allocates
/// one the first time it needs one (a cancellation handler, a progress monitor, an ID asked for,
/// a recorded awaited task). A pending task with one observer is then smaller by all of it.
///
/// Its fields are part of the state machine that holds it: read and written only under the lock
/// of the task that owns it.
final class QNTaskExtras: @unchecked Sendable {
    // @unchecked Sendable: every field is guarded by the owning task's lock (its state machine's
    // PromiseMutex); the object is reached only through that machine.

    /// The task's ID: the one given at creation, or the generated one, made the first time it
    /// is asked for and then kept, so the ID never changes.
    var taskID: String?
    /// Cancellation handlers by token, while the task has not finished.
    var cancelHandlers: [Int: QNTaskStateMachine.CancelHandler] = [:]
    var nextToken = 0
    /// Progress monitors, while the task has not finished.
    var monitors: [QNProgressMonitor] = []
    /// The task this one waits for, recorded (a task a promise's resolution adopted, a serial
    /// task's current sub-task, a task a continuation adopted before its step ran): the link the
    /// A+ surface's cycle check follows (``AdoptionCycle``). Weak, so it never keeps a dropped
    /// chain alive.
    weak var awaited: (any QNAnyAsyncTask)?
    /// A task a continuation adopted before its step ran (`adopt` called from outside the step,
    /// while the source still runs): kept apart from the source, so that cancelling the
    /// continuation cancels both. Weak, as the continuation's own reference to its source.
    weak var adoptedBeforeStep: (any QNAnyAsyncTask)?

    init(taskID: String?) {
        self.taskID = taskID
    }

    /// The handlers (in registration order) and monitors, taken out (to be freed or run outside
    /// the lock).
    func takeCallbacks() -> (cancelHandlers: [QNTaskStateMachine.CancelHandler], monitors: [QNProgressMonitor]) {
        defer {
            cancelHandlers = [:]
            monitors = []
        }
        return (cancelHandlers.sorted { $0.key < $1.key }.map(\.value), monitors)
    }
}

/// Numbers the tasks whose generated ID was asked for.
private let qnTaskCounter = Atomic<Int>(0)

/// The pure state machine behind ``QNAsyncTask``: one value, guarded by the task's one lock.
///
/// Not generic: the outcome is stored erased (``QNAnyOutcome``) and observers take it erased, so
/// the task's hot path (start, finish, deliver, cancel), which runs unspecialised (behind the
/// overrides of `main()` and `didCancel()`), makes no generic-metadata lookup. Only the typed layer knows `Result`.
///
/// Five fields: the stage and a continuation's `holdsStep` flag (a byte each), the outcome once
/// finished, the observers (the first inline), and the rarely used rest out of line
/// (``QNTaskExtras``). No weak reference is stored in it: with one, the machine's type could no
/// longer be copied as plain bytes, and every read of the state, `isRunning` and `finish` on
/// every task included, would be an outlined copy of the weak reference through the runtime.
///
/// Every transition is a mutating method that returns an *action*; the task computes the action
/// under its lock and performs it (starting the work, calling observers, cancellation handlers and
/// progress monitors) after releasing the lock. No user code ever runs under the lock.
struct QNTaskStateMachine {
    /// The first observer inline, the rest in an array (see ``QNObserverList``).
    typealias Observers = QNObserverList
    typealias CancelHandler = @Sendable () -> Void

    /// Where the task is in its life; the outcome, once there is one, is stored beside it
    /// (``outcome``), set in the same transition.
    ///
    /// One byte, not an enum carrying the outcome: every read of such a phase would copy the
    /// outcome, an existential, through the runtime's value witnesses and destroy the copy, on
    /// every chain link. The transitions read the stage and copy the outcome only to hand it out.
    enum Stage: UInt8 {
        case ready
        case running
        /// Finished, and the finishing (or cancelling) thread is still calling the observers it
        /// took, outside the lock.
        ///
        /// An observer registered meanwhile must not be told at once: it would overtake observers
        /// registered before it that the finishing thread has not reached yet, and callbacks
        /// registered one after another would run out of order (Promises/A+ 2.2.6). It is queued
        /// instead, and the finishing thread tells it after the others (``nextObservers()``).
        case delivering
        /// Finished, every observer told: a later one is told at once by whoever registers it.
        case finished

        /// `delivering` or `finished`: the outcome is set, for good.
        var hasFinished: Bool { self.rawValue >= Stage.delivering.rawValue }
    }

    /// What a transition lets go of, to be used or freed after the lock.
    struct Released {
        var observers: Observers
        /// In registration order.
        var cancelHandlers: [CancelHandler]
        var monitors: [QNProgressMonitor]

        var isEmpty: Bool { observers.isEmpty && cancelHandlers.isEmpty && monitors.isEmpty }
    }

    /// The outcome: `nil` until the task finishes (``Stage/hasFinished``), then never changed.
    /// First, so that the two bytes below sit in the padding after it (33 bytes): free.
    private(set) var outcome: QNAnyOutcome?
    private(set) var stage = Stage.ready
    /// Whether the continuation still holds its step (until the step runs or the continuation is
    /// cancelled): the continuation's typed step lives beside the machine, guarded by its lock.
    var holdsStep = true
    /// While the task waits for its outcome, its observers; while it delivers, those registered
    /// since the finishing thread last took them.
    private var observers = QNObserverList()
    /// The rarely used rest, allocated on first use.
    private var extras: QNTaskExtras?

    init(taskID: String?) {
        extras = taskID.map { QNTaskExtras(taskID: $0) }
    }

    private mutating func madeExtras() -> QNTaskExtras {
        if let extras { return extras }
        let made = QNTaskExtras(taskID: nil)
        extras = made
        return made
    }

    /// The given ID, or the generated one (made now if this is the first time it is asked for).
    mutating func taskID() -> String {
        let extras = madeExtras()
        if let taskID = extras.taskID { return taskID }
        let generated = "QNAsyncTask-\(qnTaskCounter.add(1, ordering: .relaxed).newValue)"
        extras.taskID = generated
        return generated
    }

    /// The task this one waits for (``QNTaskExtras/awaited``).
    var awaited: (any QNAnyAsyncTask)? {
        get { extras?.awaited }
        set { madeExtras().awaited = newValue }
    }

    /// A continuation adopting `task` before its step ran (see
    /// ``QNTaskExtras/adoptedBeforeStep``); recorded as awaited too, for the cycle check.
    mutating func recordAdoptionBeforeStep(_ task: any QNAnyAsyncTask) {
        let extras = madeExtras()
        extras.adoptedBeforeStep = task
        extras.awaited = task
    }

    /// Replaces a recorded awaited task with `task` (a continuation's step adopting it, after an
    /// adoption before the step was recorded); nothing to do, and no allocation, if the task has
    /// no out-of-line state.
    mutating func replaceRecordedAwaited(with task: any QNAnyAsyncTask) {
        guard let extras, extras.awaited != nil else { return }
        extras.awaited = task
    }

    /// The task a continuation adopted before its step ran, if any (and alive).
    var adoptedBeforeStep: (any QNAnyAsyncTask)? { extras?.adoptedBeforeStep }

    /// The task this one recorded last (``QNTaskExtras/awaited``), while it has not finished.
    var unfinishedAwaited: (any QNAnyAsyncTask)? {
        if stage.hasFinished { return nil }
        return extras?.awaited
    }

    // MARK: Actions

    enum StartAction {
        /// The task was ready and is now running: start the work.
        case run
        /// The task was already running, or has finished and is still delivering its outcome: the
        /// observer (if any) was stored, to be told with the others.
        case stored
        /// The task had finished: deliver this outcome to the observer.
        case deliver(QNAnyOutcome)
    }

    enum ObserveAction {
        case stored
        case deliver(QNAnyOutcome)
    }

    enum FinishAction {
        /// The task finished now: notify `released.observers` of the outcome the caller gave
        /// (not carried here: a copy of it would be one more existential copy per link). Cancellation
        /// handlers are dropped unrun (the task was not cancelled); `released` carries them out of
        /// the lock, so whatever they capture is freed after it.
        case notify(released: Released)
        /// The task had already finished (first outcome wins); nothing to do.
        case ignore
    }

    enum CancelAction {
        /// The task is now cancelled: run `released.cancelHandlers` (registration order), then,
        /// if `delivering` (the machine is handing the outcome out: there are handlers or
        /// observers), notify `released.observers` and those registered meanwhile; the monitors
        /// are only freed.
        case cancelled(released: Released, delivering: Bool)
        /// The task had already finished; cancelling is a no-op.
        case ignore
    }

    enum AddCancelHandlerAction {
        /// Stored; remove it with this token when it is no longer needed.
        case stored(token: Int)
        /// The task is already cancelled: run the handler now.
        case callNow
        /// The task succeeded or failed: the handler will never run.
        case dropped
    }

    // MARK: Transitions

    var state: QNTaskState {
        switch (stage, outcome) {
        case (.ready, _): return .ready
        case (.running, _): return .running
        case (_, .succeeded?): return .succeeded
        case (_, .failed?): return .failed
        case (_, .cancelled?): return .cancelled
        case (.delivering, nil), (.finished, nil):
            preconditionFailure("a finished task without an outcome: both are set in one transition")
        }
    }

    /// Starts the task; `observer` is moved into the list when stored (a copy would retain what
    /// it captures, on the slow path for a continuation), and left to the caller to deliver to.
    mutating func start(_ observer: inout QNTaskObserver?) -> StartAction {
        switch stage {
        case .ready:
            stage = .running
            if let taken = observer.take() { observers.append(taken) }
            return .run
        case .running, .delivering:
            if let taken = observer.take() { observers.append(taken) }
            return .stored
        case .finished:
            return .deliver(finishedOutcome)
        }
    }

    mutating func observe(_ observer: QNTaskObserver) -> ObserveAction {
        if stage == .finished { return .deliver(finishedOutcome) }
        observers.append(observer)
        return .stored
    }

    /// The outcome of a finished task (``Stage/hasFinished``).
    private var finishedOutcome: QNAnyOutcome {
        guard let outcome else {
            preconditionFailure("a finished task without an outcome: both are set in one transition")
        }
        return outcome
    }

    /// Called by the finishing thread after it told the observers it took: those registered
    /// meanwhile, to tell next, or an empty list if there are none (the task has then delivered
    /// its outcome to everyone, and later observers are told at once by whoever registers them).
    /// Not an optional list: unspecialised, an optional's type would be looked up on every call,
    /// once or more per chain link.
    mutating func nextObservers() -> Observers {
        guard !observers.isEmpty else {
            // Checked here, where the stage is read anyway: the finishing thread's loop always
            // ends with a call that finds no observer (a check on every call would cost every link).
            switch stage {
            case .delivering: stage = .finished
            case .finished: break
            case .ready, .running:
                preconditionFailure(
                    "nextObservers() before the task finished: only the finishing thread hands out observers")
            }
            return Observers()
        }
        return observers.take()
    }

    /// Lets go of everything the unfinished task holds, as it finishes (the caller sets the new
    /// stage and outcome).
    private mutating func releaseAll() -> Released {
        let callbacks = extras?.takeCallbacks()
        return Released(
            observers: observers.take(),
            cancelHandlers: callbacks?.cancelHandlers ?? [],
            monitors: callbacks?.monitors ?? []
        )
    }

    /// Succeeds or fails the task. Allowed from `ready` too, so a manual task completed before it
    /// was started keeps its outcome (its work then never runs).
    mutating func finish(_ outcome: QNAnyOutcome) -> FinishAction {
        if stage.hasFinished { return .ignore }
        // Asked before the list moves out: asked of `released`, it would copy the first observer.
        let hasObservers = !observers.isEmpty
        let released = releaseAll()
        // With no observer to tell, there is nothing a later one could overtake.
        stage = hasObservers ? .delivering : .finished
        self.outcome = outcome
        return .notify(released: consume released)
    }

    mutating func cancel() -> CancelAction {
        if stage.hasFinished { return .ignore }
        let released = releaseAll()
        // Delivering also while the handlers run: they come before every observer, including
        // one registered meanwhile.
        let delivering = !released.observers.isEmpty || !released.cancelHandlers.isEmpty
        stage = delivering ? .delivering : .finished
        outcome = .cancelled
        return .cancelled(released: released, delivering: delivering)
    }

    mutating func addCancelHandler(_ handler: @escaping CancelHandler) -> AddCancelHandlerAction {
        switch stage {
        case .delivering, .finished:
            if case .cancelled? = outcome { return .callNow }
            return .dropped
        case .ready, .running:
            let extras = madeExtras()
            let token = extras.nextToken
            extras.nextToken += 1
            extras.cancelHandlers[token] = handler
            return .stored(token: token)
        }
    }

    /// Removes a handler; returns it so the caller frees it (and what it captures) after the lock.
    mutating func removeCancelHandler(_ token: Int) -> CancelHandler? {
        extras?.cancelHandlers.removeValue(forKey: token)
    }

    /// Stores a progress monitor; `false` if the task has finished (no progress will come).
    mutating func addMonitor(_ monitor: QNProgressMonitor) -> Bool {
        if stage.hasFinished { return false }
        madeExtras().monitors.append(monitor)
        return true
    }

    /// The monitors to tell about progress: only while running.
    func monitorsForProgress() -> [QNProgressMonitor] {
        guard stage == .running else { return [] }
        return extras?.monitors ?? []
    }

    /// Whether the task has started and not finished.
    var isRunning: Bool {
        stage == .running
    }

    /// Called when the task is freed: whatever a task that never finished still holds.
    mutating func abandon() -> Released? {
        if stage.hasFinished { return nil }
        let abandoned = releaseAll()
        return abandoned.isEmpty ? nil : abandoned
    }
}

/// A task's observers in registration order: the first inline, the rest in an array, so that a
/// task with one observer (a source and its continuation, a task started with one callback)
/// allocates no array.
///
/// Written for moves, not copies: a list leaves the lock with ``take()`` (a swap) and is told
/// with a consuming ``notifyAll(_:)``, because every copy of an observer retains what its
/// closure captures, usually a continuation, whose reference count is on the slow path (its own
/// continuation refers to it weakly). Not `InlineFirstList`, whose hand-out and iteration copy
/// the observers: a slow-path retain for each copy, on every chain link.
struct QNObserverList {
    private var first: QNTaskObserver?
    private var rest: [QNTaskObserver] = []

    var isEmpty: Bool {
        if case .none = first { return true }
        return false
    }

    mutating func append(_ observer: consuming QNTaskObserver) {
        if case .none = first {
            first = observer
        } else {
            rest.append(observer)
        }
    }

    /// The list, moved out; this one is left empty.
    mutating func take() -> QNObserverList {
        var taken = QNObserverList()
        swap(&self, &taken)
        return taken
    }

    /// Tells every observer `outcome`, in registration order.
    consuming func notifyAll(_ outcome: QNAnyOutcome) {
        guard let first = first.take() else { return }
        first.notify(outcome)
        for observer in rest { observer.notify(outcome) }
    }
}
