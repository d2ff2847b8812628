import BatchedPromises
import Dispatch
import TestSupport
import Testing

@Suite("Batched: async/await, both ways")
struct ConcurrencyTests {
    @Test("value waits for the value, or throws the failure")
    func value() async throws {
        let (promise, resolver) = Promise<Int, TestError>.makePending()
        DispatchQueue.global().async { resolver.fulfill(3) }
        #expect(try await promise.value == 3)
        do {
            _ = try await Promise<Int, TestError>(failure: TestError(4)).value
            Issue.record("no throw")
        } catch {
            #expect(error as? TestError == TestError(4))
        }
    }

    @Test("outcome waits for the outcome, cancelled included")
    func outcome() async throws {
        let (promise, _) = Promise<Int, Never>.makePending()
        promise.cancel()
        #expect(await promise.outcome.isCancelled)
        #expect(await Promise<Int, Never>(value: 1).outcome == .fulfilled(1))
    }

    @Test("a cancelled waiting task withdraws: the promise it alone waited for is cancelled, and value throws")
    func taskCancelsPromise() async throws {
        let (promise, resolver) = Promise<Int, Never>.makePending()
        let told = Recorder<Bool>()
        resolver.onCancel { told.record(true) }
        let waiter = Task { try await promise.value }
        try await eventually("the task to wait") { !told.all.isEmpty || promise.isPending }
        waiter.cancel()
        let result = await waiter.result
        #expect(throws: CancellationError.self) { try result.get() }
        try await eventually("the promise to be cancelled") { promise.currentOutcome?.isCancelled == true }
        #expect(told.all == [true])
    }

    @Test("a cancelled waiting task leaves a promise others wait for alone")
    func otherWaitersKeepIt() async throws {
        let (promise, resolver) = Promise<Int, Never>.makePending()
        let other = promise.map(on: .global()) { $0 + 1 }
        let waiter = Task { try await promise.value }
        waiter.cancel()
        _ = await waiter.result
        #expect(promise.isPending)
        resolver.fulfill(1)
        #expect(try await other.value == 2)
    }

    @Test("a promise made from async work: its value; cancelling it cancels the task")
    func promiseFromTask() async throws {
        let made = Promise<Int, any Error> { try await Task.sleep(for: .milliseconds(1)); return 5 }
        #expect(try await made.value == 5)
        let sawCancel = Recorder<Bool>()
        let (started, start) = Promise<Void, Never>.makePending()
        let long = Promise<Int, any Error> {
            start.fulfill(())
            do {
                try await Task.sleep(for: .seconds(600))
            } catch {
                sawCancel.record(Task.isCancelled)
                throw error
            }
            return 0
        }
        _ = await started.outcome
        long.cancel()
        try await eventually("the task to see the cancellation") { sawCancel.all == [true] }
        #expect(await long.outcome.isCancelled)
    }
}
