public import Dispatch

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
/// - Cancelling the serial task cancels the running sub-task; later build blocks never run and
///   later sub-tasks never start.
/// - The progress fraction (``QNAsyncTask/monitorProgress(on:_:)``) is the share of build blocks
///   done.
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
    // @unchecked Sendable: the inherited state is guarded by QNAsyncTask's lock; `run` is confined
    // to the one step in flight (see `Run`).

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

    /// The progress of one run: touched only by the step in flight. Steps never overlap: step
    /// `i + 1` runs in a callback of sub-task `i`, which is delivered (through the sub-task's lock
    /// and a dispatch) after step `i` started it, so each access happens-after the previous one.
    private final class Run: @unchecked Sendable {
        var buildBlocks: [InternalBuildBlock?]
        var subStates: [QNAsyncSerialTaskSubState] = []
        init(_ buildBlocks: [InternalBuildBlock]) { self.buildBlocks = buildBlocks }
    }

    private let queue: DispatchQueue
    private let run: Run
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
        run = Run(internalBuildBlocks)
        blockCount = internalBuildBlocks.count
        self.progressMonitor = progressMonitor
        self.resultGenerate = resultGenerate
        super.init(identifier: taskID)
    }

    override func main() {
        queue.async { [self] in step(index: 0, previous: nil) }
    }

    /// Runs build block `index` and starts its sub-task; the sub-task's callback runs the next
    /// step. Always called from a queue hop, never from the previous step's stack.
    private func step(index: Int, previous: QNAsyncSerialTaskSubState?) {
        guard state == .running else { return }
        guard index < blockCount, let block = run.buildBlocks[index] else {
            generateResult()
            return
        }
        // A used build block is released at once: it may hold the previous task of a `then`
        // chain, which must not stay alive through this one.
        run.buildBlocks[index] = nil
        let next: QNAsyncSerialStep?
        do {
            next = try block(self, previous)
        } catch {
            finish(.failed(error))
            return
        }
        guard let next else {
            generateResult()
            return
        }
        let child = next.task
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
        child.startErased(on: queue) { [self] outcome in
            removeCancelHandler(token)
            let subState = QNAsyncSerialTaskSubState(
                index: index,
                taskID: childID,
                outcome: outcome,
                isOptional: isOptional
            )
            subStateFinished(subState)
        }
    }

    private func subStateFinished(_ subState: QNAsyncSerialTaskSubState) {
        guard state == .running else { return }
        run.subStates.append(subState)
        if !subState.isOptional {
            switch subState.outcome {
            case .succeeded: break
            case .failed(let error):
                finish(.failed(error))
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

    private func generateResult() {
        let subStates = run.subStates
        run.subStates = []
        do {
            finish(.succeeded(try resultGenerate(subStates)))
        } catch {
            finish(.failed(error))
        }
    }
}
