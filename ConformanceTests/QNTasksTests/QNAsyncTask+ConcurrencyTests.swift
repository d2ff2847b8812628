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

    @Test("awaiting needs no queue to be serviced: the value arrives while the main queue is blocked")
    func noQueueNeeded() async throws {
        // Block the main queue (the default callback queue) until the value has arrived. The
        // block is bounded, so a failing bridge cannot hang the test run; a passing one holds
        // main only for the moment the value takes to arrive.
        let mainBlocked = Signal()
        let release = Signal()
        DispatchQueue.main.async {
            mainBlocked.fire()
            _ = release.wait(seconds: 30)
        }
        defer { release.fire() }
        try await mainBlocked.fired()
        let task = QNAsyncManualTask<Int> { task in DispatchQueue.global().async { task.succeed(1) } }
        // Shorter than the block: a value that needed the main queue would time out here.
        let value = try await awaitCompletion("the value while the main queue is blocked", timeout: .seconds(20)) {
            complete in
            Task {
                do {
                    complete(.success(try await task.value))
                } catch {
                    complete(.failure(error))
                }
            }
        }
        #expect(value == 1)
    }
}
