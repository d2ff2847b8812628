import Dispatch
import Foundation
import QNTasks
import TestSupport
import Testing

@Suite("QN async/await bridge")
struct QNConcurrencyTests {
    @Test("await value returns the result or throws the error, starting the task")
    func value() async throws {
        #expect(try await QNAsyncBlockTask<Int> { _ in 3 }.value == 3)
        await #expect(throws: TestError(2)) { try await QNAsyncBlockTask<Int> { _ in throw TestError(2) }.value }
    }

    @Test("a cancelled QN task throws CancellationError")
    func cancelledThrows() async throws {
        let task = QNAsyncManualTask<Int>()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test("cancelling the Swift Task cancels the QN task")
    func swiftCancellation() async throws {
        let launched = Signal()
        let cleanups = Recorder<Int>()
        let task = QNAsyncManualTask<Int> { task in
            task.onCancel { cleanups.record(1) }
            launched.fire()
        }
        let waiter = Task { try await task.value }
        try await launched.fired()
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(task.state == .cancelled)
        #expect(cleanups.count == 1)
    }

    @Test("awaiting needs no queue to be serviced: the value arrives while the main queue is blocked")
    func noQueueNeeded() async {
        // In a child process, so that blocking the main queue (the default callback queue) holds
        // up no other test. The blocker is queued first, so any main-queue work the bridge
        // needed would wait behind it and the value would time out.
        await #expect(processExitsWith: .success) {
            let release = DispatchSemaphore(value: 0)
            DispatchQueue.main.async { _ = release.wait(timeout: .now() + 30) }
            defer { release.signal() }
            let task = QNAsyncManualTask<Int> { task in DispatchQueue.global().async { task.succeed(1) } }
            let outcome = try await awaitOutcome(
                "the value while the main queue is blocked", timeout: longTimeout(.seconds(20))
            ) {
                try await task.value
            }
            guard case .success(1) = outcome else { exit(1) }
        }
    }
}
