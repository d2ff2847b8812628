public import Dispatch
import PromiseInterface

/// A task that waits for another task and then runs one step with its outcome: the one-task link
/// that ``QNAsyncTask/then(on:_:)``, ``QNAsyncTask/map(on:_:)`` and the Promises/A+ surface are
/// made of.
///
/// Lazy, like every task: starting the continuation starts the task it waits for (its *source*),
/// if that has not started. When the source finishes, its outcome is handed to the step on the
/// continuation's queue, in a hop. The step finishes the continuation, at once
/// (``succeed(_:)``, ``fail(_:)``, ``QNAsyncTask/cancel()``) or later, by adopting a task
/// (``adopt(_:)``) whose outcome becomes the continuation's.
///
/// Cancelling the continuation cancels the task it is waiting for: the source while it runs (the
/// source is the continuation's running step, as a serial task's current sub-task is), then the
/// task it adopted. A step never runs once the continuation is cancelled.
///
/// ```swift
/// let user = QNAsyncManualTask<User>(taskID: "user") { fetchUser(42, completion: $0.complete) }
/// let avatar = QNAsyncContinuationTask(source: user) { outcome, avatar in
///     switch outcome {
///     case .succeeded(let user): avatar.adopt(downloadAvatar(of: user))
///     case .failed(let error): avatar.fail(error)
///     case .cancelled: avatar.cancel()
///     }
/// }
/// avatar.start(success: { show($0) }, failure: { log($0) })   // starts `user`, then the download
/// ```
///
/// ## Cost
/// One task object per link, one hop per link; it registers one observer on its source and no
/// cancellation handler (cancelling reaches the source through an override, not a closure). A
/// chain of continuations of any length starts, finishes, cancels and is freed in loops, never
/// recursively.
public final class QNAsyncContinuationTask<Input: Sendable, Result: Sendable>: QNAsyncTask<Result>,
    QNSourceStarting, QNSourceWaiting, @unchecked Sendable
{
    // @unchecked Sendable: adds `link`, guarded by its own PromiseMutex, and `step`, guarded by
    // the same lock (see QNAsyncTask).

    /// The step: called once with the source's outcome, on the continuation's queue; it must
    /// finish the continuation it is given, now or later.
    public typealias Step = @Sendable (QNTaskOutcome<Input>, QNAsyncContinuationTask<Input, Result>) -> Void

    /// What runs when the source finished: a step given to the public initialiser, or the body
    /// of ``QNAsyncTask/map(on:_:)`` or ``QNAsyncTask/then(on:_:)`` stored as written (no
    /// wrapping closure to allocate).
    enum Continuation: Sendable {
        case step(Step)
        case map(@Sendable (Input) throws -> Result)
        case then(@Sendable (Input) throws -> QNAsyncTask<Result>)
    }

    /// Guards the link, and `step`.
    private let link: PromiseMutex<QNContinuationLink>
    /// The step, until it runs or the continuation is cancelled (`link.holdsStep` says which).
    /// Guarded by `link`'s lock; kept out of the link, whose type would otherwise be generic.
    private var step: Continuation?
    /// Where the step runs.
    private let queue: DispatchQueue

    /// Makes a ready continuation of `source`.
    ///
    /// - Parameters:
    ///   - source: The task to wait for; started when the continuation starts.
    ///   - queue: Where `step` runs. Defaults to the main queue.
    ///   - taskID: The continuation's ID; a unique one is generated if `nil`.
    ///   - step: Called once with the source's outcome (unless the continuation was cancelled);
    ///     it finishes the continuation.
    public init(
        source: QNAsyncTask<Input>,
        queue: DispatchQueue = .main,
        taskID: String? = nil,
        step: @escaping Step
    ) {
        link = PromiseMutex(QNContinuationLink(unstarted: source))
        self.step = .step(step)
        self.queue = queue
        super.init(identifier: taskID)
    }

    /// Makes a ready continuation of `source` that runs `continuation` (`map` and `then`).
    init(source: QNAsyncTask<Input>, queue: DispatchQueue, continuation: Continuation) {
        link = PromiseMutex(QNContinuationLink(unstarted: source))
        step = continuation
        self.queue = queue
        super.init(identifier: nil)
    }

    deinit {
        // An unstarted chain of continuations holds its sources strongly, one link each: freed
        // here, the chain would be freed recursively.
        // Moved in, so that no binding here frees them at the end of this deinit, nested. A link
        // that ran holds neither any more: it costs no loop.
        let (unstarted, holdsStep) = link.withLock { ($0.unstarted.take(), $0.holdsStep) }
        if unstarted != nil { releaseIteratively(consume unstarted) }
        if holdsStep { releaseIteratively(step.take()) }
    }

    override func main() {
        // Starting the source may start its own source, and so on down an unstarted chain: the
        // drain runs those starts in a loop on this thread, so the stack stays flat.
        QNDrain.start(self)
    }

    /// Starts the source (called by the drain).
    func startSource() {
        let (source, dropped) = link.withLock { link -> ((any QNAnyAsyncTask)?, (any QNAnyAsyncTask)?) in
            let unstarted = link.unstarted.take()
            // Checked under the lock `didCancel` takes: a cancel that ran before this (deferred
            // start) found nothing to cancel, so the source must not start now.
            guard state == .running else { return (nil, unstarted) }
            link.running = unstarted
            return (unstarted, nil)
        }
        // The source of a continuation cancelled meanwhile is let go here, outside the lock: it
        // may be its last reference, and freeing it frees what its work captures.
        withExtendedLifetime(dropped) {}
        source?.start(observer: QNTaskObserver(queue: queue) { outcome in self.sourceFinished(outcome) })
    }

    /// The source, from creation for as long as it lives (finished or not), while the
    /// continuation has not finished: the link the cycle check follows when the continuation
    /// recorded none. A finished source waits for nothing, so the walk ends there.
    var awaitedSource: (any QNAnyAsyncTask)? {
        guard !state.isFinished else { return nil }
        return link.withLock { $0.unstarted ?? $0.running }
    }

    /// Runs on `queue` when the source finished, with its outcome erased (the source's core
    /// stores it so); `map` and `then` cast only the value back.
    private func sourceFinished(_ outcome: QNAnyOutcome) {
        var taken: Continuation?
        let runs = link.withLock { link -> Bool in
            guard link.holdsStep else { return false }
            link.holdsStep = false
            taken = step.take()
            // Finished meanwhile (cancelled, or completed from outside): the step does not run.
            return state == .running
        }
        // A step taken that does not run is freed here, outside the lock; none is left once the
        // continuation was cancelled.
        guard runs, let continuation = taken else { return }
        switch continuation {
        case .step(let step): step(outcome.typed(), self)
        case .map(let transform):
            continueWith(outcome) { value in self.finish(succeeding: try transform(value)) }
        case .then(let next):
            continueWith(outcome) { value in self.adopt(try next(value)) }
        }
    }

    /// `map` and `then`: runs `body` with a value (a throw fails the continuation); a failure
    /// passes through; a cancellation of the source cancels the continuation.
    private func continueWith(_ outcome: QNAnyOutcome, _ body: (Input) throws -> Void) {
        switch outcome {
        case .succeeded(let value):
            do {
                try body(qnUnerased(value))
            } catch {
                fail(error)
            }
        case .failed(let error): finish(failing: error)
        case .cancelled: cancel()
        }
    }

    override func didCancel() {
        var step: Continuation?
        let (running, adopted) = link.withLock { link in
            if link.holdsStep {
                link.holdsStep = false
                step = self.step.take()
            }
            return (link.running, link.adopted.take())
        }
        running?.cancel()
        adopted?.cancel()
        withExtendedLifetime(step) {}  // freed here, outside the lock
    }

    // MARK: - Finishing (from the step)

    /// Finishes the continuation with `value`, unless it already finished.
    ///
    /// - Returns: Whether this call finished it.
    @discardableResult
    public func succeed(_ value: Result) -> Bool {
        finish(succeeding: value)
    }

    /// Fails the continuation with `error`, unless it already finished. A `CancellationError`
    /// cancels it instead.
    ///
    /// - Returns: Whether this call finished it.
    @discardableResult
    public func fail(_ error: any Error) -> Bool {
        failOrCancel(error)
    }

    /// Finishes the continuation as `task` does: starts `task` (if it has not started) and takes
    /// its outcome. Cancelling the continuation meanwhile cancels `task`.
    public func adopt(_ task: QNAsyncTask<Result>) {
        let isCancelled = link.withLock { link -> Bool in
            // Checked under the lock that `didCancel` takes: adopted after it ran, the task
            // would never be cancelled.
            guard state == .running, task !== self else { return true }
            link.adopted = task
            return false
        }
        guard !isCancelled else {
            task.cancel()
            return
        }
        recordAwaited(task)
        // Finished through the drain, not inline: a nest of continuations adopting one another
        // (a recursive `then`) then unwinds in a loop, not one stack frame set per level.
        task.start(observer: QNTaskObserver(queue: nil) { outcome in QNDrain.run { self.finishAdopting(outcome) } })
    }

    /// `outcome` is the adopted task's, erased: its value is a `Result` already.
    private func finishAdopting(_ outcome: QNAnyOutcome) {
        let adopted = link.withLock { $0.adopted.take() }
        withExtendedLifetime(adopted) {}
        switch outcome {
        case .succeeded, .failed: finishErased(outcome)
        case .cancelled: cancel()
        }
    }
}

/// A continuation's link to the tasks it waits for. Not generic (the tasks are held erased, and
/// the typed step lives beside it in the continuation), so taking the continuation's lock looks up
/// no generic metadata in unspecialised code.
struct QNContinuationLink {
    /// The source, until the continuation starts: held strongly while nothing else runs it.
    var unstarted: (any QNAnyAsyncTask)?
    /// The source once the continuation started it, for as long as it lives (never cleared: the
    /// hot path does not pay for it); weak, so a source nobody can finish any more is freed (its
    /// observer, this continuation, with it).
    weak var running: (any QNAnyAsyncTask)?
    /// Whether the continuation still holds its step: until the step runs or the continuation is
    /// cancelled.
    var holdsStep = true
    /// The task the step adopted, while it runs. Weak: a running task is kept alive by its work,
    /// and an adopted task nobody can finish must not keep this one (and the chain after it) alive
    /// through its observer.
    weak var adopted: (any QNAnyAsyncTask)?
}

/// A task that waits for a source it holds in its link (a continuation), for the cycle check
/// (``QNAnyAsyncTask/awaitedTask``).
protocol QNSourceWaiting: AnyObject {
    var awaitedSource: (any QNAnyAsyncTask)? { get }
}
