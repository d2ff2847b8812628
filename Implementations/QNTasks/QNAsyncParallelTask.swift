import Dispatch

/// Sub-tasks run at once, finished by a policy: all of them, or the first success.
///
/// Not in the seed (which names "several in parallel" as a common scenario): added so the design
/// covers it.
///
/// - ``init(taskID:all:)``: succeeds with every result, in the order the sub-tasks were given,
///   once all succeeded; the first failure fails it, and a sub-task cancelled from outside cancels
///   it.
/// - ``init(taskID:firstSuccessOf:)``: succeeds with the first result to arrive; fails with
///   ``QNAllFailedError`` when every sub-task failed or was cancelled.
///
/// As soon as the policy is decided, the sub-tasks still running are cancelled. Cancelling the
/// parallel task cancels every sub-task. Starting it starts every sub-task (a sub-task already
/// started elsewhere is only observed).
///
/// ```swift
/// let avatars = QNAsyncParallelTask(all: contacts.map { loadAvatar($0) })
/// avatars.start { outcome in show(outcome) }
/// ```
///
/// ## Threading
/// Sub-task outcomes are gathered on a private serial queue, so the bookkeeping needs no second
/// lock; the task's own state is guarded by its one lock, as for every task.
public final class QNAsyncParallelTask<Result: Sendable>: QNAsyncTask<Result>, @unchecked Sendable {
    // @unchecked Sendable: adds only an immutable property to QNAsyncTask (see there).

    private let launch: @Sendable (QNAsyncParallelTask<Result>) -> Void

    init(taskID: String?, launch: @escaping @Sendable (QNAsyncParallelTask<Result>) -> Void) {
        self.launch = launch
        super.init(identifier: taskID)
    }

    override func main() {
        launch(self)
    }

    /// The bookkeeping of one run, confined to its serial `queue`.
    fileprivate final class Gather<Element: Sendable>: @unchecked Sendable {
        let queue = DispatchQueue(label: "QNAsyncParallelTask.gather")
        var values: [Element?]
        var errors: [(any Error)?]
        var remaining: Int
        /// Cancels each sub-task; weak, so a decided parallel task does not keep them alive.
        let cancels: [@Sendable () -> Void]

        init(_ tasks: [QNAsyncTask<Element>]) {
            values = Array(repeating: nil, count: tasks.count)
            errors = Array(repeating: nil, count: tasks.count)
            remaining = tasks.count
            cancels = tasks.map { task in { [weak task] in task?.cancel() } }
        }

        func cancelAll() {
            for cancel in cancels { cancel() }
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
                parallel.finish(.succeeded([]))
                return
            }
            let gather = Gather(tasks)
            parallel.onCancel { gather.cancelAll() }
            for (index, task) in tasks.enumerated() {
                if parallel.state != .running { break }
                task.start(
                    observer: QNTaskObserver(queue: gather.queue) { outcome in
                        switch outcome {
                        case .succeeded(let value):
                            gather.values[index] = value
                            gather.remaining -= 1
                            if gather.remaining == 0 {
                                parallel.finish(.succeeded(gather.values.map { $0! }))
                            }
                        case .failed(let error):
                            if parallel.finish(.failed(error)) { gather.cancelAll() }
                        case .cancelled:
                            parallel.cancel()
                        }
                    })
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
                    .failed(QNTaskError.invalidArgument("a first-success task needs at least one sub-task")))
                return
            }
            let gather = Gather(tasks)
            parallel.onCancel { gather.cancelAll() }
            for (index, task) in tasks.enumerated() {
                if parallel.state != .running { break }
                task.start(
                    observer: QNTaskObserver(queue: gather.queue) { outcome in
                        switch outcome {
                        case .succeeded(let value):
                            if parallel.finish(.succeeded(value)) { gather.cancelAll() }
                        case .failed, .cancelled:
                            gather.errors[index] = outcome.result.failureError
                            gather.remaining -= 1
                            if gather.remaining == 0 {
                                parallel.finish(.failed(QNAllFailedError(errors: gather.errors.compactMap { $0 })))
                            }
                        }
                    })
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
