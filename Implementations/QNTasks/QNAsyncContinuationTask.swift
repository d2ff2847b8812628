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
    QNSourceStarting, @unchecked Sendable
{
    // @unchecked Sendable: adds only `link`, guarded by its own PromiseMutex (see QNAsyncTask).

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

    /// The continuation's link to the tasks it waits for.
    private struct Link {
        /// The source, until the continuation starts: held strongly while nothing else runs it.
        var unstarted: QNAsyncTask<Input>?
        /// The source while the continuation waits for it; weak, so a source nobody can finish
        /// any more is freed (its observer, this continuation, with it).
        weak var running: QNAsyncTask<Input>?
        /// The step, until it runs or the continuation is cancelled.
        var step: Continuation?
        /// The task the step adopted, while it runs. Weak: a running task is kept alive by its
        /// work, and an adopted task nobody can finish must not keep this one (and the chain
        /// after it) alive through its observer.
        weak var adopted: (any QNAnyAsyncTask)?
    }

    /// Guards the link.
    private let link: PromiseMutex<Link>
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
        link = PromiseMutex(Link(unstarted: source, step: .step(step)))
        self.queue = queue
        super.init(identifier: taskID)
    }

    /// Makes a ready continuation of `source` that runs `continuation` (`map` and `then`).
    init(source: QNAsyncTask<Input>, queue: DispatchQueue, continuation: Continuation) {
        link = PromiseMutex(Link(unstarted: source, step: continuation))
        self.queue = queue
        super.init(identifier: nil)
    }

    deinit {
        // An unstarted chain of continuations holds its sources strongly, one link each: freed
        // here, the chain would be freed recursively.
        // Moved in, so that no binding here frees them at the end of this deinit, nested. A link
        // that ran holds neither any more: it costs no loop.
        let (unstarted, step) = link.withLock { ($0.unstarted.take(), $0.step.take()) }
        if unstarted != nil { releaseIteratively(consume unstarted) }
        if step != nil { releaseIteratively(consume step) }
    }

    override func main() {
        // Starting the source may start its own source, and so on down an unstarted chain: the
        // drain runs those starts in a loop on this thread, so the stack stays flat.
        QNDrain.start(self)
    }

    /// Starts the source (called by the drain).
    func startSource() {
        let source: QNAsyncTask<Input>? = link.withLock { link in
            defer { link.unstarted = nil }
            // Checked under the lock `didCancel` takes: a cancel that ran before this (deferred
            // start) found nothing to cancel, so the source must not start now.
            guard state == .running else { return nil }
            link.running = link.unstarted
            return link.unstarted
        }
        source?.start(observer: QNTaskObserver(queue: queue) { outcome in self.sourceFinished(outcome) })
    }

    /// Runs on `queue` when the source finished.
    private func sourceFinished(_ outcome: QNTaskOutcome<Input>) {
        let continuation = link.withLock { link -> Continuation? in
            defer { link.step = nil }
            // Finished meanwhile (cancelled, or completed from outside): the step does not run.
            guard state == .running else { return nil }
            return link.step
        }
        // `nil` once cancelled: the step never runs then.
        switch continuation {
        case nil: break
        case .step(let step): step(outcome, self)
        case .map(let transform):
            continueWith(outcome) { value in self.succeed(try transform(value)) }
        case .then(let next):
            continueWith(outcome) { value in self.adopt(try next(value)) }
        }
    }

    /// `map` and `then`: runs `body` with a value (a throw fails the continuation); a failure
    /// passes through; a cancellation of the source cancels the continuation.
    private func continueWith(_ outcome: QNTaskOutcome<Input>, _ body: (Input) throws -> Void) {
        switch outcome {
        case .succeeded(let value):
            do {
                try body(value)
            } catch {
                fail(error)
            }
        case .failed(let error): finish(.failed(error))
        case .cancelled: cancel()
        }
    }

    override func didCancel() {
        let (running, adopted, step) = link.withLock { ($0.running, $0.adopted.take(), $0.step.take()) }
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
        finish(.succeeded(value))
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

    private func finishAdopting(_ outcome: QNTaskOutcome<Result>) {
        let adopted = link.withLock { $0.adopted.take() }
        withExtendedLifetime(adopted) {}
        switch outcome {
        case .succeeded, .failed: finish(outcome)
        case .cancelled: cancel()
        }
    }
}
