public import Dispatch
import PromiseRuntime

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
    // @unchecked Sendable: adds `step`, `unstarted`, `source` and `adopted`, guarded by the task's own lock (`machine`,
    // with `holdsStep` in the machine), and an immutable `queue` (see QNAsyncTask).

    /// The step: called once with the source's outcome, on the continuation's queue; it must
    /// finish the continuation it is given, now or later.
    public typealias Step = @Sendable (QNTaskOutcome<Input>, QNAsyncContinuationTask<Input, Result>) -> Void

    /// What runs when the source finished: a step given to the public initialiser, or the body
    /// of ``QNAsyncTask/map(on:_:)`` or ``QNAsyncTask/then(on:_:)`` stored as written (no
    /// wrapping closure to allocate).
    @usableFromInline
    enum Continuation: Sendable {
        case step(Step)
        case map(@Sendable (Input) throws -> Result)
        case then(@Sendable (Input) throws -> QNAsyncTask<Result>)
    }

    /// The step, until it runs or the continuation is cancelled (the machine's `holdsStep` says
    /// which). Guarded by the task's lock (`machine`); kept beside the machine, which is not
    /// generic.
    private var step: Continuation?
    /// The source, until the continuation starts: held strongly while nothing else runs it.
    /// Guarded by the task's lock (`machine`), as `step` is: one lock for everything a link does.
    ///
    /// Typed, one word: an existential here would take two, and nothing
    /// on the hot path needs one (the source's methods are final and take their type from it).
    private var unstarted: QNAsyncTask<Input>?
    /// The source once the continuation started it, for as long as it lives (not cleared when it
    /// finishes: the hot path does not pay for it), to cancel it while the continuation waits for
    /// it. Weak: a source nobody can finish any more is freed (its observer, this continuation,
    /// with it). Guarded by the task's lock.
    private weak var source: QNAsyncTask<Input>?
    /// The task the step adopted (``adopt(_:)``), the one a cancellation reaches from then on.
    /// Weak: an adopted task nobody can finish must not keep this continuation (and the chain
    /// after it) alive through its observer. Guarded by the task's lock.
    ///
    /// The source and the adopted task in two typed fields, one word each, not one field of
    /// either: one field would be an existential (two words), and every read of an enum with a
    /// weak payload copies the weak reference through the runtime (the chain's teardown reads it
    /// once per link). Both are kept out of the machine, whose type a weak reference would
    /// make one that cannot be copied as plain bytes at all (see ``QNTaskStateMachine``).
    private weak var adopted: QNAsyncTask<Result>?
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
        self.step = .step(step)
        self.queue = queue
        unstarted = source
        super.init(identifier: taskID)
    }

    /// Makes a ready continuation of `source` that runs `continuation` (`map` and `then`).
    @usableFromInline
    init(source: QNAsyncTask<Input>, queue: DispatchQueue, continuation: Continuation) {
        step = continuation
        self.queue = queue
        unstarted = source
        super.init(identifier: nil)
    }

    deinit {
        // An unstarted chain of continuations holds its sources strongly, one link each, and a
        // step that never ran may hold the next tasks: freed here, the chain would be freed
        // recursively. Moved in, so that no binding here frees them at the end of this deinit,
        // nested. A link that ran holds neither any more: it costs no loop.
        // Not `unstarted.take()`, which looks up generic metadata when unspecialised (see
        // `takeStep`); and the source leaves the lock in a variable, not as the closure's
        // result, whose type (generic here) would be looked up on every call.
        var source: QNAsyncTask<Input>?
        let holdsStep = machine.withLock { machine in
            source = self.unstarted
            self.unstarted = nil
            return machine.holdsStep
        }
        // The variable itself is consumed: a binding (`if let`) would leave it holding the source
        // until the end of this deinit, and free the chain nested after all.
        if source != nil { releaseIteratively(consume source) }
        if holdsStep {
            let step = self.step
            self.step = nil
            releaseIteratively(step)
        }
    }

    override func main() {
        // Starting the source may start its own source, and so on down an unstarted chain: the
        // drain runs those starts in a loop on this thread, so the stack stays flat.
        QNDrain.start(self)
    }

    /// Starts the source (called by the drain).
    func startSource() {
        // The source leaves the lock in a variable, not as the closure's result (see `deinit`).
        var source: QNAsyncTask<Input>?
        let starts = machine.withLock { machine in
            // Moved out (not `swap`, which looks up the optional's metadata when unspecialised).
            source = self.unstarted
            self.unstarted = nil
            // Checked under the lock the cancellation takes: a cancel that ran before this
            // (deferred start) found nothing to cancel, so the source must not start now.
            guard machine.isRunning else { return false }
            self.source = source
            return true
        }
        // The source of a continuation cancelled meanwhile is let go at the end of this method,
        // outside the lock: it may be its last reference, and freeing it frees what its work
        // captures. Used through the optional, not bound: a binding would retain it once more, and
        // the source's reference counting is on the slow path (it has a side table).
        guard starts else { return }
        source?.start(observer: QNTaskObserver(queue: queue) { outcome in self.sourceFinished(outcome) })
    }

    /// The task the continuation waits for, while it has not finished: its source (from creation,
    /// for as long as it lives, finished or not), then the task its step adopted. A finished
    /// source waits for nothing, so the cycle check's walk ends there.
    override var unrecordedAwaited: (any QNAnyAsyncTask)? {
        machine.withLock { machine -> (any QNAnyAsyncTask)? in
            guard machine.outcome == nil else { return nil }
            if let adopted = self.adopted { return adopted }
            return self.unstarted ?? self.source
        }
    }

    /// Runs on `queue` when the source finished, with its outcome erased (the source's core
    /// stores it so); `map` and `then` cast only the value back.
    private func sourceFinished(_ outcome: QNAnyOutcome) {
        var taken: Continuation?
        let runs = machine.withLock { machine -> Bool in
            taken = takeStep(&machine)
            // Finished meanwhile (cancelled, or completed from outside): the step does not run.
            return taken != nil && machine.isRunning
        }
        // A step taken that does not run is freed here, outside the lock; none is left once the
        // continuation was cancelled.
        guard runs, let continuation = taken else { return }
        switch continuation {
        case .step(let step): run(step, with: outcome)
        case .map(let transform):
            continueWith(outcome) { value in self.finish(succeeding: try transform(value)) }
        case .then(let next):
            continueWith(outcome) { value in self.adopt(try next(value)) }
        }
    }

    /// A step given to the public initialiser, with the typed outcome. Out of line: with the typed
    /// outcome's type in `sourceFinished`, its metadata would be looked up on entry for every `map`
    /// link too.
    @inline(never)
    private func run(_ step: Step, with outcome: QNAnyOutcome) {
        step(outcome.typed(), self)
    }

    /// Takes the step if the continuation still holds it: it is taken once, by the source's
    /// outcome or by a cancellation, whichever comes first. Call it under the machine's lock,
    /// and free what it returns outside the lock.
    private func takeStep(_ machine: inout QNTaskStateMachine) -> Continuation? {
        guard machine.holdsStep else { return nil }
        machine.holdsStep = false
        // Not `step.take()`: this method runs unspecialised, and the generic `take()` looks up
        // the step's type and its optional's on every link; a `Continuation` holds only closures,
        // so moving it needs no lookup.
        let taken = step
        step = nil
        return taken
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

    /// Cancels the tasks the continuation waits for (its source or the task its step adopted, and
    /// a task adopted before the step ran) and drops the step.
    override func didCancel() {
        var step: Continuation?
        var source: QNAsyncTask<Input>?
        var adopted: QNAsyncTask<Result>?
        let adoptedBeforeStep = machine.withLock { machine in
            step = takeStep(&machine)
            // An unstarted source stays: it is freed with the continuation (`deinit`), or by
            // `startSource`, which finds the continuation cancelled and lets it go. The typed
            // tasks leave the lock in variables (see `deinit`).
            source = self.source
            adopted = self.adopted
            return machine.adoptedBeforeStep
        }
        // The adopted task once there is one; the source has finished by then (the step ran).
        if let adopted { adopted.cancel() } else { source?.cancel() }
        adoptedBeforeStep?.cancel()
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
    ///
    /// Call it once, from the step or from work the step started. Called from outside before the
    /// step ran, it does not replace the step: the source still runs, the step still runs when
    /// the source finishes, and whichever finishes the continuation first wins; cancelling the
    /// continuation meanwhile cancels both the source and `task`. A second call replaces the
    /// first task as the one a cancellation reaches.
    ///
    /// Adopting the continuation itself (`adopt(self)`, or a `then` block that returns the task
    /// `then` returned) fails it with ``QNTaskError/cycle``.
    public func adopt(_ task: QNAsyncTask<Result>) {
        if task === self {
            // Waiting for itself, it would never finish: the same mistake the A+ surface and the
            // serial task report as a cycle, not a cancellation the user did not ask for.
            finish(failing: QNTaskError.cycle)
            return
        }
        // Checked under the lock the cancellation takes: adopted after it, the task would never
        // be cancelled.
        let isCancelled = machine.withLock { machine -> Bool in
            guard machine.isRunning else { return true }
            if machine.holdsStep {
                // Adopted from outside the step, which has not run: the source may still run,
                // and a cancellation must reach both (out of line: rare).
                machine.recordAdoptionBeforeStep(task)
            } else {
                // From the step: replaces the source, which has finished (the step runs after
                // it did). No allocation, no recording: the cycle check follows `adopted`, unless
                // something was recorded (an adoption before the step), which it must replace.
                adopted = task
                machine.replaceRecordedAwaited(with: task)
            }
            return false
        }
        guard !isCancelled else {
            task.cancel()
            return
        }
        // Finished through the drain, not inline: a nest of continuations adopting one another
        // (a recursive `then`) then unwinds in a loop, not one stack frame set per level.
        task.start(observer: QNTaskObserver(queue: nil) { outcome in QNDrain.run { self.finishAdopting(outcome) } })
    }

    /// `outcome` is the adopted task's, erased: its value is a `Result` already.
    private func finishAdopting(_ outcome: QNAnyOutcome) {
        switch outcome {
        case .succeeded, .failed: finishErased(outcome)
        case .cancelled: cancel()
        }
    }
}
