public import Dispatch
import PromiseRuntime

/// Sub-tasks run one after another, each built from how the previous one ended.
///
/// A serial task holds a list of *build blocks*. When the task starts, the first block is called
/// with `nil` and returns the first sub-task; when that sub-task finishes, its sub-state (ID and
/// outcome) is reported to `progressMonitor` and handed to the next build block, which returns the
/// next sub-task; and so on. A block that returns `nil` ends the list early. At the end,
/// `resultGenerate` builds the serial task's result from every sub-state.
///
/// - A *required* sub-task that fails fails the serial task with its error; one that is cancelled
///   (from outside) cancels it. An *optional* sub-task's failure or cancellation is only recorded
///   in its sub-state.
/// - A build block or `resultGenerate` that throws fails the serial task.
/// - A build block that returns the serial task itself fails it with ``QNTaskError/cycle``.
/// - Cancelling the serial task cancels the running sub-task; later sub-tasks never start. Each
///   build block, progress monitor call and `resultGenerate` call is made only after checking
///   that the task still runs, so a `cancel()` racing a step lets at most the one call already
///   past its check run after `cancel()` returned: a build block (the sub-task it returns is
///   cancelled and never started), a progress monitor call, or `resultGenerate` (its result is
///   ignored). Nothing runs after that.
/// - The progress fraction (``QNAsyncTask/monitorProgress(on:_:)``) is the share of build blocks
///   done, and 1 when the serial task succeeds (also when a build block ended the list early).
///
/// ```swift
/// let loader = QNAsyncSerialTask<[Item]>(
///     taskID: "list",
///     buildBlocks: [
///         { _ in .optional(loadLocalCache()) },
///         { _ in .required(loadRemote()) },
///     ],
///     progressMonitor: { subState in
///         if subState.taskID == "local", let cached = subState.result(as: [Item].self) { show(cached) }
///     },
///     resultGenerate: { subStates in try aggregate(subStates) }
/// )
/// loader.start { outcome in show(outcome) }
/// ```
///
/// ## Threading
/// Build blocks, the progress monitor and `resultGenerate` run on `queue`, one at a time and never
/// under a lock. Each step is started from a queue hop after the previous sub-task finished, so a
/// serial task of any length runs without growing the stack.
public final class QNAsyncSerialTask<Result: Sendable>: QNAsyncTask<Result>, @unchecked Sendable {
    // @unchecked Sendable: the inherited state is guarded by QNAsyncTask's lock; the one mutable
    // state added, `run`, is guarded by its own PromiseMutex; the other properties are immutable.

    /// Builds the next sub-task from the previous sub-task's sub-state (`nil` for the first);
    /// returns `nil` to end the serial task early.
    public typealias BuildBlock = @Sendable (QNAsyncSerialTaskSubState?) throws -> QNAsyncSerialStep?
    /// Called with each finished sub-task's sub-state, before the next build block.
    public typealias ProgressMonitor = @Sendable (QNAsyncSerialTaskSubState) -> Void
    /// Builds the result from the sub-states of every sub-task that ran, in order.
    public typealias ResultGenerate = @Sendable ([QNAsyncSerialTaskSubState]) throws -> Result

    /// A build block that also receives the serial task (for the A+ surface's cycle check).
    typealias InternalBuildBlock =
        @Sendable (QNAsyncSerialTask<Result>, QNAsyncSerialTaskSubState?) throws ->
        QNAsyncSerialStep?

    /// The progress of one run. Steps never overlap (step `i + 1` runs in a callback of sub-task
    /// `i`), so the lock is never contended; it is there so the state's safety does not rest on
    /// that argument.
    private struct Run {
        /// Unused build blocks; each is taken out (and released) when its step runs.
        var buildBlocks: [InternalBuildBlock?]
        var subStates: [QNAsyncSerialTaskSubState] = []
    }

    private let queue: DispatchQueue
    /// Guards the build blocks not yet used and the sub-states gathered so far.
    private let run: PromiseMutex<Run>
    private let blockCount: Int
    private let progressMonitor: ProgressMonitor?
    private let resultGenerate: ResultGenerate

    /// Makes a ready serial task.
    ///
    /// - Parameters:
    ///   - taskID: The task's ID; a unique one is generated if `nil`.
    ///   - queue: Where build blocks, `progressMonitor` and `resultGenerate` run, and where
    ///     sub-task outcomes are received. Defaults to the main queue.
    ///   - buildBlocks: One block per step, called in order.
    ///   - progressMonitor: Called with each finished sub-task's sub-state (the original's
    ///     `progressMonitorBlock`).
    ///   - resultGenerate: Builds the result at the end (the original's `resultGenerateBlock`).
    public convenience init(
        taskID: String? = nil,
        queue: DispatchQueue = .main,
        buildBlocks: [BuildBlock],
        progressMonitor: ProgressMonitor? = nil,
        resultGenerate: @escaping ResultGenerate
    ) {
        self.init(
            taskID: taskID,
            queue: queue,
            internalBuildBlocks: buildBlocks.map { block in { _, previous in try block(previous) } },
            progressMonitor: progressMonitor,
            resultGenerate: resultGenerate
        )
    }

    init(
        taskID: String?,
        queue: DispatchQueue,
        internalBuildBlocks: [InternalBuildBlock],
        progressMonitor: ProgressMonitor?,
        resultGenerate: @escaping ResultGenerate
    ) {
        self.queue = queue
        run = PromiseMutex(Run(buildBlocks: internalBuildBlocks))
        blockCount = internalBuildBlocks.count
        self.progressMonitor = progressMonitor
        self.resultGenerate = resultGenerate
        super.init(identifier: taskID)
    }

    deinit {
        // The build blocks a serial task never used may hold the next level of a nest (a block
        // returning a serial task it captured), which holds the next: freed here, a dropped
        // 100,000-deep nest that never started would be freed recursively.
        let unused = run.withLock { run in
            defer { run.buildBlocks = [] }
            return run.buildBlocks
        }
        guard unused.contains(where: { $0 != nil }) else { return }
        releaseIteratively(consume unused)
    }

    override func main() {
        queue.async { [self] in step(index: 0, previous: nil) }
    }

    /// Runs build block `index` and starts its sub-task; the sub-task's callback runs the next
    /// step. Always called from a queue hop, never from the previous step's stack.
    private func step(index: Int, previous: QNAsyncSerialTaskSubState?) {
        guard state == .running else { return }
        // A used build block is taken out at once: it may hold the previous task of a `then`
        // chain, which must not stay alive through this one.
        let block = run.withLock { run -> InternalBuildBlock? in
            guard index < run.buildBlocks.count else { return nil }
            defer { run.buildBlocks[index] = nil }
            return run.buildBlocks[index]
        }
        guard let block else {
            // Every block ran; the last sub-state already reported 1 (unless there were none).
            generateResult(reportCompletion: blockCount == 0)
            return
        }
        let next: QNAsyncSerialStep?
        do {
            next = try block(self, previous)
        } catch {
            finish(failing: error)
            return
        }
        guard let next else {
            generateResult(reportCompletion: true)
            return
        }
        let child = next.task
        // A serial task waiting for itself would never finish.
        guard ObjectIdentifier(child) != ObjectIdentifier(self) else {
            finish(failing: QNTaskError.cycle)
            return
        }
        recordAwaited(child)
        // Registered before the sub-task starts, so a cancel racing this step either finds the
        // handler (and cancels the sub-task) or has already cancelled this task (and the sub-task
        // is cancelled here, before it ever runs).
        guard let token = addCancelHandler({ [weak child] in child?.cancel() }) else {
            // Already cancelled: the handler ran at once, so the sub-task is cancelled and never
            // starts.
            return
        }
        // The callback is stored in the sub-task until it finishes: it must not capture the
        // sub-task itself, or a sub-task that never finishes would keep itself alive.
        let childID = child.taskID
        let isOptional = next.isOptional
        child.start(
            observer: QNTaskObserver(queue: queue) { [self] outcome in
                removeCancelHandler(token)
                let subState = QNAsyncSerialTaskSubState(
                    index: index,
                    taskID: childID,
                    outcome: outcome,
                    isOptional: isOptional
                )
                subStateFinished(subState)
            })
    }

    private func subStateFinished(_ subState: QNAsyncSerialTaskSubState) {
        guard state == .running else { return }
        run.withLock { $0.subStates.append(subState) }
        if !subState.isOptional {
            switch subState.outcome {
            case .succeeded: break
            case .failed(let error):
                finish(failing: error)
                return
            case .cancelled:
                cancel()
                return
            }
        }
        progressMonitor?(subState)
        reportProgress(Double(subState.index + 1) / Double(max(blockCount, 1)))
        step(index: subState.index + 1, previous: subState)
    }

    /// Builds the result and finishes; `reportCompletion` reports progress 1 first (the list
    /// ended early or was empty, so no sub-state reported it).
    private func generateResult(reportCompletion: Bool) {
        guard state == .running else { return }
        let subStates = run.withLock { run in
            defer { run.subStates = [] }
            return run.subStates
        }
        let result: Result
        do {
            result = try resultGenerate(subStates)
        } catch {
            finish(failing: error)
            return
        }
        // Before finishing: progress is only delivered while the task runs.
        if reportCompletion { reportProgress(1) }
        finish(succeeding: result)
    }
}
