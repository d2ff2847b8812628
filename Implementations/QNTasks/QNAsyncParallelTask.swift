import Dispatch
import PromiseRuntime

/// Sub-tasks run at once, finished by a policy: all of them, or the first success.
///
/// Not in the original (whose source, the FBPromise talk, names "several in parallel" as a common scenario): added so the design
/// covers it.
///
/// - ``init(taskID:all:)``: succeeds with every result, in the order the sub-tasks were given,
///   once all succeeded; the first failure fails it, and a sub-task cancelled from outside cancels
///   it.
/// - ``init(taskID:firstSuccessOf:)``: succeeds with the first result to arrive; fails with
///   ``QNAllFailedError`` when every sub-task failed or was cancelled.
///
/// As soon as the policy is decided, the sub-tasks still running are cancelled, *before* the
/// outcome is reported: whoever observes the outcome finds the losers already cancelled.
/// Cancelling the parallel task cancels every sub-task. Starting it starts every sub-task.
///
/// A sub-task already started elsewhere is not started again, only observed, but it is the
/// parallel task's all the same: it is cancelled when the policy is decided without it or when the
/// parallel task is cancelled. Hand a parallel task only sub-tasks it may cancel.
///
/// ```swift
/// let avatars = QNAsyncParallelTask(all: contacts.map { loadAvatar($0) })
/// avatars.start { outcome in show(outcome) }
/// ```
///
/// ## Threading
/// Sub-task outcomes are delivered to a private serial queue (a hop, never the finishing sub-task's
/// stack); the bookkeeping they update is guarded by its own lock.
///
/// ## Lifetime
/// The parallel task lets go of its sub-tasks once it has started them: each is kept alive by its
/// own work, as any task is, and the parallel task keeps only weak references to cancel them. A
/// sub-task nobody can complete any more is freed (and its outcome never comes), and a finished
/// parallel task does not keep its sub-tasks alive.
public final class QNAsyncParallelTask<Result: Sendable>: QNAsyncTask<Result>, @unchecked Sendable {
    // @unchecked Sendable: the one mutable property it adds, the `launch` slot, is guarded by its
    // PromiseMutex; the rest is QNAsyncTask's (see there).

    typealias Launch = @Sendable (QNAsyncParallelTask<Result>) -> Void

    /// Starts the sub-tasks; holds them until then. A one-shot slot: emptied by `main()` (or by a
    /// cancellation before the start), so the sub-tasks are not kept alive through the parallel
    /// task.
    private let launch: QNOneShot<StoredLaunch>

    /// The closure in a struct, as `QNOneShot` wants it (see there).
    private struct StoredLaunch: Sendable {
        let run: Launch
    }

    init(taskID: String?, launch: @escaping Launch) {
        self.launch = QNOneShot(StoredLaunch(run: launch))
        super.init(identifier: taskID)
    }

    /// Cancelled before it started, `main()` never runs: the sub-tasks are let go of here.
    override func didCancel() {
        _ = takeLaunch()
    }

    override func main() {
        guard let launch = takeLaunch() else { return }
        // Through the drain: the launch starts the sub-tasks, and a sub-task that is a parallel
        // task launches its own from its start. Run inline, starting a 100,000-deep nest would
        // nest 100,000 launches and overflow the stack; on the drain they run one after another.
        QNDrain.run { launch(self) }
    }

    /// Empties the slot; the closure is returned so it is called or freed outside the lock.
    private func takeLaunch() -> Launch? {
        launch.take()?.run
    }

    /// The bookkeeping of one run.
    fileprivate final class Gather<Element: Sendable>: Sendable {
        struct State {
            var values: [Element?]
            var errors: [(any Error)?]
            var remaining: Int
            /// Set by the outcome that decides the policy; later outcomes are ignored.
            var decided = false
        }

        /// Where the sub-tasks' outcomes are delivered.
        let queue = DispatchQueue(label: "QNAsyncParallelTask.gather")
        /// Guards the results gathered so far and whether the policy is decided.
        let state: PromiseMutex<State>
        /// Cancels each sub-task; weak, so the parallel task does not keep them alive.
        let cancels: [@Sendable () -> Void]

        init(_ tasks: [QNAsyncTask<Element>]) {
            state = PromiseMutex(
                State(
                    values: Array(repeating: nil, count: tasks.count),
                    errors: Array(repeating: nil, count: tasks.count),
                    remaining: tasks.count
                ))
            cancels = tasks.map { task in { [weak task] in task?.cancel() } }
        }

        /// Decides the policy; `true` for the first caller only.
        func decide() -> Bool {
            state.withLock { state in
                defer { state.decided = true }
                return !state.decided
            }
        }

        func cancelAll() {
            for cancel in cancels { cancel() }
        }

        /// Starts `tasks` for `parallel` (stopping early if it is no longer running) and hands each
        /// outcome, with the sub-task's index, to `record` on ``queue``. Cancelling `parallel`
        /// cancels them all.
        func launch(
            _ tasks: [QNAsyncTask<Element>],
            for parallel: QNAsyncParallelTask<Result>,
            record: @escaping @Sendable (Int, QNTaskOutcome<Element>) -> Void
        ) {
            parallel.onCancel { self.cancelAll() }
            for (index, task) in tasks.enumerated() {
                if parallel.state != .running { break }
                task.start(observer: QNTaskObserver(queue: queue) { outcome in record(index, outcome.typed()) })
            }
        }
    }
}

extension QNAsyncParallelTask {
    /// Makes a ready task that runs `tasks` at once and succeeds with all their results, in the
    /// order given.
    ///
    /// The first failure fails it; a sub-task cancelled from outside cancels it; either way the
    /// other sub-tasks are cancelled. With no sub-tasks it succeeds with `[]`.
    ///
    /// - Parameters:
    ///   - taskID: The task's ID; a unique one is generated if `nil`.
    ///   - tasks: The sub-tasks, all of one result type.
    public convenience init<Element: Sendable>(taskID: String? = nil, all tasks: [QNAsyncTask<Element>])
    where Result == [Element] {
        self.init(taskID: taskID) { parallel in
            guard !tasks.isEmpty else {
                parallel.finish(succeeding: [])
                return
            }
            let gather = Gather(tasks)
            gather.launch(tasks, for: parallel) { index, outcome in
                switch outcome {
                case .succeeded(let value):
                    let all = gather.state.withLock { state -> [Element]? in
                        guard !state.decided else { return nil }
                        state.values[index] = value
                        state.remaining -= 1
                        guard state.remaining == 0 else { return nil }
                        state.decided = true
                        return state.values.map { $0! }
                    }
                    if let all { parallel.finish(succeeding: all) }
                case .failed(let error):
                    // The rest first, so the failure is observed with them cancelled.
                    guard gather.decide() else { return }
                    gather.cancelAll()
                    parallel.finish(failing: error)
                case .cancelled:
                    // Cancelled from outside (our own cancellations come after the
                    // decision and are ignored). Cancelling the parallel task runs its
                    // handler, which cancels the rest, before it reports.
                    guard gather.decide() else { return }
                    parallel.cancel()
                }
            }
        }
    }

    /// Makes a ready task that runs `tasks` at once and succeeds with the first result to arrive.
    ///
    /// The others are then cancelled. A failure or cancellation of one sub-task only counts
    /// against it; when every sub-task failed or was cancelled, the task fails with
    /// ``QNAllFailedError``. With no sub-tasks it fails with ``QNTaskError/invalidArgument(_:)``.
    ///
    /// - Parameters:
    ///   - taskID: The task's ID; a unique one is generated if `nil`.
    ///   - tasks: The sub-tasks, all of the task's result type.
    public convenience init(taskID: String? = nil, firstSuccessOf tasks: [QNAsyncTask<Result>]) {
        self.init(taskID: taskID) { parallel in
            guard !tasks.isEmpty else {
                parallel.finish(
                    failing: QNTaskError.invalidArgument("a first-success task needs at least one sub-task"))
                return
            }
            let gather = Gather(tasks)
            gather.launch(tasks, for: parallel) { index, outcome in
                switch outcome {
                case .succeeded(let value):
                    // The rest first, so the success is observed with them cancelled.
                    guard gather.decide() else { return }
                    gather.cancelAll()
                    parallel.finish(succeeding: value)
                case .failed, .cancelled:
                    let errors = gather.state.withLock { state -> [any Error]? in
                        guard !state.decided else { return nil }
                        state.errors[index] = outcome.result.failureError
                        state.remaining -= 1
                        guard state.remaining == 0 else { return nil }
                        state.decided = true
                        return state.errors.compactMap { $0 }
                    }
                    if let errors { parallel.finish(failing: QNAllFailedError(errors: errors)) }
                }
            }
        }
    }
}

extension Swift.Result {
    fileprivate var failureError: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
