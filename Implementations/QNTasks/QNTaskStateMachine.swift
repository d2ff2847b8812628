import Dispatch
import PromiseInterface

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

/// The pure state machine behind ``QNAsyncTask``: one value, guarded by the task's one lock.
///
/// Not generic: the outcome is stored erased (``QNAnyOutcome``) and observers take it erased, so
/// the task's hot path (start, finish, deliver, cancel), which runs unspecialised (behind the
/// overrides of `main()` and `didCancel()`), makes no generic-metadata lookup. Only the typed layer knows `Result`.
///
/// Every transition is a mutating method that returns an *action*; the task computes the action
/// under its lock and performs it (starting the work, calling observers, cancellation handlers and
/// progress monitors) after releasing the lock. No user code ever runs under the lock.
struct QNTaskStateMachine {
    /// An array, not `InlineFirstList`: storing the first observer inline saves an allocation per
    /// pending task but costs about a tenth of a chain link in time (two alternating release runs:
    /// 2.80 against 2.53-2.55 times FBL's per-link time), because every copy of an inline observer
    /// retains what its closure captures, the next task, and a task's reference count takes the
    /// slow path (its continuation refers to it weakly, which gives it a side table), where
    /// copying an array retains only its buffer.
    typealias Observers = [QNTaskObserver]
    typealias CancelHandler = @Sendable () -> Void

    enum Phase {
        case ready
        case running
        case finished(QNAnyOutcome)
    }

    /// What a task still waiting for its outcome holds. Kept apart from `phase` so appending to
    /// it mutates in place instead of copying an enum payload.
    struct Pending {
        var observers: Observers = []
        var cancelHandlers: [Int: CancelHandler] = [:]
        var nextToken = 0
        var monitors: [QNProgressMonitor] = []

        var isEmpty: Bool { observers.isEmpty && cancelHandlers.isEmpty && monitors.isEmpty }

        /// Cancellation handlers in registration order.
        var orderedCancelHandlers: [CancelHandler] {
            cancelHandlers.sorted { $0.key < $1.key }.map(\.value)
        }
    }

    private(set) var phase: Phase = .ready
    /// While the task waits for its outcome, everything it holds; once finished and still
    /// delivering, the observers registered since the finishing thread last took them.
    private var pending = Pending()
    /// Whether the finishing (or cancelling) thread is still calling the observers it took,
    /// outside the lock.
    ///
    /// An observer registered meanwhile must not be told at once: it would overtake observers
    /// registered before it that the finishing thread has not reached yet, and callbacks
    /// registered one after another would run out of order (Promises/A+ 2.2.6). It is queued
    /// instead, and the finishing thread tells it after the others (``nextObservers()``).
    private var isDelivering = false
    /// The task this one waits for (a serial task's current sub-task, the task a promise step
    /// adopted): the link the A+ surface's cycle check follows (``AdoptionCycle``). Weak, so it
    /// never keeps a dropped chain alive.
    weak var awaited: (any QNAnyAsyncTask)?

    /// The task this one waits for, while it has not finished.
    var unfinishedAwaited: (any QNAnyAsyncTask)? {
        if case .finished = phase { return nil }
        return awaited
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
        /// The task finished now: notify `released.observers`. Cancellation handlers are dropped
        /// unrun (the task was not cancelled); `released` carries them out of the lock, so
        /// whatever they capture is freed after it.
        case notify(QNAnyOutcome, released: Pending)
        /// The task had already finished (first outcome wins); nothing to do.
        case ignore
    }

    enum CancelAction {
        /// The task is now cancelled: run the handlers (registration order), then notify.
        /// `released` carries the rest (progress monitors) out of the lock.
        case cancelled(handlers: [CancelHandler], observers: Observers, released: Pending)
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
        switch phase {
        case .ready: return .ready
        case .running: return .running
        case .finished(.succeeded): return .succeeded
        case .finished(.failed): return .failed
        case .finished(.cancelled): return .cancelled
        }
    }

    var outcome: QNAnyOutcome? {
        if case .finished(let outcome) = phase { return outcome }
        return nil
    }

    mutating func start(_ observer: QNTaskObserver?) -> StartAction {
        switch phase {
        case .ready:
            phase = .running
            if let observer { pending.observers.append(observer) }
            return .run
        case .running:
            if let observer { pending.observers.append(observer) }
            return .stored
        case .finished(let outcome):
            guard isDelivering else { return .deliver(outcome) }
            if let observer { pending.observers.append(observer) }
            return .stored
        }
    }

    mutating func observe(_ observer: QNTaskObserver) -> ObserveAction {
        if case .finished(let outcome) = phase, !isDelivering { return .deliver(outcome) }
        pending.observers.append(observer)
        return .stored
    }

    /// Called by the finishing thread after it told the observers it took: those registered
    /// meanwhile, to tell next, or `nil` if there are none (the task has then delivered its
    /// outcome to everyone, and later observers are told at once by whoever registers them).
    mutating func nextObservers() -> Observers? {
        guard !pending.observers.isEmpty else {
            isDelivering = false
            return nil
        }
        defer { pending.observers = [] }
        return pending.observers
    }

    /// Succeeds or fails the task. Allowed from `ready` too, so a manual task completed before it
    /// was started keeps its outcome (its work then never runs).
    mutating func finish(_ outcome: QNAnyOutcome) -> FinishAction {
        if case .finished = phase { return .ignore }
        phase = .finished(outcome)
        let released = pending
        pending = Pending()
        // With no observer to tell, there is nothing a later one could overtake.
        isDelivering = !released.observers.isEmpty
        return .notify(outcome, released: released)
    }

    mutating func cancel() -> CancelAction {
        if case .finished = phase { return .ignore }
        phase = .finished(.cancelled)
        let released = pending
        pending = Pending()
        // Delivering also while the handlers run: they come before every observer, including
        // one registered meanwhile.
        isDelivering = !released.observers.isEmpty || !released.cancelHandlers.isEmpty
        return .cancelled(handlers: released.orderedCancelHandlers, observers: released.observers, released: released)
    }

    mutating func addCancelHandler(_ handler: @escaping CancelHandler) -> AddCancelHandlerAction {
        switch phase {
        case .finished(.cancelled):
            return .callNow
        case .finished:
            return .dropped
        case .ready, .running:
            let token = pending.nextToken
            pending.nextToken += 1
            pending.cancelHandlers[token] = handler
            return .stored(token: token)
        }
    }

    /// Removes a handler; returns it so the caller frees it (and what it captures) after the lock.
    mutating func removeCancelHandler(_ token: Int) -> CancelHandler? {
        pending.cancelHandlers.removeValue(forKey: token)
    }

    /// Stores a progress monitor; `false` if the task has finished (no progress will come).
    mutating func addMonitor(_ monitor: QNProgressMonitor) -> Bool {
        if case .finished = phase { return false }
        pending.monitors.append(monitor)
        return true
    }

    /// The monitors to tell about progress: only while running.
    func monitorsForProgress() -> [QNProgressMonitor] {
        guard case .running = phase else { return [] }
        return pending.monitors
    }

    /// Whether the task has started and not finished.
    var isRunning: Bool {
        if case .running = phase { return true }
        return false
    }

    /// Called when the task is freed: whatever a task that never finished still holds.
    mutating func abandon() -> Pending? {
        if case .finished = phase { return nil }
        let abandoned = pending
        pending = Pending()
        return abandoned.isEmpty ? nil : abandoned
    }
}
