import Dispatch
import PromiseRuntime
import QNTasks
import TestSupport
import Testing

/// Waits for a task's outcome (starting it), with a timeout; the outcome arrives on `queue`.
func outcome<Result: Sendable>(
    of task: QNAsyncTask<Result>,
    on queue: DispatchQueue = .global(),
    timeout: Duration = defaultTestTimeout
) async throws -> QNTaskOutcome<Result> {
    try await awaitCompletion("the outcome of \(task.taskID)", timeout: timeout) { complete in
        task.start(on: queue) { complete(.success($0)) }
    }
}

/// Waits for a task's outcome without starting it.
func observedOutcome<Result: Sendable>(
    of task: QNAsyncTask<Result>,
    timeout: Duration = defaultTestTimeout
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

/// A signal that one side fires and the other waits for, with a timeout: blocking (`wait`) on a
/// Dispatch thread, or suspending (`fired`) in async code, which must never block the cooperative
/// pool.
final class Signal: Sendable {
    private struct State {
        var fired = false
        var waiters: [@Sendable () -> Void] = []
    }

    private let semaphore = DispatchSemaphore(value: 0)
    /// Guards whether the signal fired and the async waiters.
    private let state = PromiseMutex(State())

    func fire() {
        let waiters = state.withLock { state in
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        semaphore.signal()
        for waiter in waiters { waiter() }
    }

    /// Blocks until the signal fires; only for code on Dispatch queues. Whether it came within
    /// `seconds`.
    func wait(seconds: Double = defaultTestTimeout.timeInterval) -> Bool {
        semaphore.wait(timeout: .now() + seconds) == .success
    }

    /// Suspends until the signal fires (at once if it has); throws `TimedOut` after `timeout`.
    func fired(timeout: Duration = defaultTestTimeout) async throws {
        try await waitUntil("a signal", timeout: timeout) { done in
            let now = state.withLock { state -> Bool in
                if state.fired { return true }
                state.waiters.append(done)
                return false
            }
            if now { done() }
        }
    }
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

/// Builds a never-started nest of tasks, `stressSize(100_000)` levels deep, each level made by
/// `wrap` from the one inside it, drops it, and checks that its outermost and innermost levels
/// were freed (on this thread, at once: a nest freed recursively overflows the stack instead).
///
/// The innermost level comes from `makeInnermost` so that no binding here keeps it alive.
func expectDroppedNestFreed(
    innermost makeInnermost: () -> QNAsyncTask<Int>,
    wrap: (QNAsyncTask<Int>) -> QNAsyncTask<Int>,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    var outer: QNAsyncTask<Int>? = makeInnermost()
    let innermost = Weak(outer)
    for _ in 0..<stressSize(100_000) { outer = wrap(outer!) }
    let outermost = Weak(outer)
    outer = nil
    #expect(outermost.object == nil, "the outermost level", sourceLocation: sourceLocation)
    #expect(innermost.object == nil, "the innermost level", sourceLocation: sourceLocation)
}
