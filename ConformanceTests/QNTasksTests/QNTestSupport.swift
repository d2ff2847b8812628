import Dispatch
import QNTasks
import TestSupport

/// Waits for a task's outcome (starting it), with a timeout; the outcome arrives on `queue`.
func outcome<Result: Sendable>(
    of task: QNAsyncTask<Result>,
    on queue: DispatchQueue = .global(),
    timeout: Duration = .seconds(10)
) async throws -> QNTaskOutcome<Result> {
    try await awaitCompletion("the outcome of \(task.taskID)", timeout: timeout) { complete in
        task.start(on: queue) { complete(.success($0)) }
    }
}
