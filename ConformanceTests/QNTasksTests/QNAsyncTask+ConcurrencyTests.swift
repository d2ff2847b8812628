import Dispatch
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

    @Test("awaiting needs no queue to be serviced: the value is handed over on the finishing thread")
    func noQueueNeeded() async throws {
        let queue = TaggedQueue("qn.await")
        let task = QNAsyncBlockTask<Int>(queue: queue.queue) { _ in 1 }
        #expect(try await task.value == 1)
    }
}
