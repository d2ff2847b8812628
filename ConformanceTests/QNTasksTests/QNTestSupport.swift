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

/// Waits for a task's outcome without starting it.
func observedOutcome<Result: Sendable>(
    of task: QNAsyncTask<Result>,
    timeout: Duration = .seconds(10)
) async throws -> QNTaskOutcome<Result> {
    try await awaitCompletion("the outcome of \(task.taskID)", timeout: timeout) { complete in
        task.observe(on: .global()) { complete(.success($0)) }
    }
}

/// Runs `body` on `queue` after `hops` further hops through it: latency made of queue hops, so a
/// fake service is slow without sleeping.
func after(hops: Int, on queue: DispatchQueue, _ body: @escaping @Sendable () -> Void) {
    queue.async {
        if hops <= 0 {
            body()
        } else {
            after(hops: hops - 1, on: queue, body)
        }
    }
}

/// A signal one thread waits for (with a timeout) and another gives.
final class Signal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func fire() { semaphore.signal() }
    /// Whether the signal came within `seconds`.
    func wait(seconds: Double = 5) -> Bool { semaphore.wait(timeout: .now() + seconds) == .success }
}

extension QNTaskOutcome {
    /// A short name for comparisons in tests.
    var name: String {
        switch self {
        case .succeeded: return "succeeded"
        case .failed: return "failed"
        case .cancelled: return "cancelled"
        }
    }
}
