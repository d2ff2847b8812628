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
        #expect(try await awaitOutcome { try await promise.value }.get() == 3)
        do {
            _ = try await awaitOutcome { try await Promise<Int, TestError>(failure: TestError(4)).value }.get()
            Issue.record("no throw")
        } catch {
            #expect(error as? TestError == TestError(4))
        }
    }

    @Test("outcome waits for the outcome, cancelled included")
    func outcome() async throws {
        let (promise, _) = Promise<Int, Never>.makePending()
        promise.cancel()
        #expect(try await awaitOutcome { await promise.outcome }.get().isCancelled)
        #expect(try await awaitOutcome { await Promise<Int, Never>(value: 1).outcome }.get() == .fulfilled(1))
    }

    @Test("a cancelled waiting task withdraws: the promise it alone waited for is cancelled, and value throws")
    func taskCancelsPromise() async throws {
        let (promise, resolver) = Promise<Int, Never>.makePending()
        let told = Recorder<Bool>()
        resolver.onCancel { told.record(true) }
        let waiter = Task { try await promise.value }
        // The task may start awaiting before or after the cancel: both withdraw it and cancel the
        // promise (the cancellation handler runs inside `cancel()` once the task waits, or in the
        // task before its wait returns otherwise).
        waiter.cancel()
        let result = try await awaitOutcome("the cancelled task") { try await waiter.value }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(promise.currentOutcome?.isCancelled == true)
        #expect(told.all == [true])
    }

    @Test("a cancelled waiting task leaves a promise others wait for alone")
    func otherWaitersKeepIt() async throws {
        let (promise, resolver) = Promise<Int, Never>.makePending()
        let other = promise.map(on: .global()) { $0 + 1 }
        let waiter = Task { try await promise.value }
        waiter.cancel()
        _ = try await awaitOutcome("the cancelled task") { try await waiter.value }
        #expect(promise.isPending)
        resolver.fulfill(1)
        #expect(try await awaitOutcome { try await other.value }.get() == 2)
    }

    @Test("a promise made from async work: its value; cancelling it cancels the task")
    func promiseFromTask() async throws {
        let made = Promise<Int, any Error> {
            try await Task.sleep(for: .milliseconds(1)); return 5
        }
        #expect(try await awaitOutcome { try await made.value }.get() == 5)
        // Fulfilled by the task when its sleep throws, with whether the task was cancelled.
        let (sawCancel, sawCancelResolver) = Promise<Bool, Never>.makePending()
        let (started, start) = Promise<Void, Never>.makePending()
        let long = Promise<Int, any Error> {
            start.fulfill(())
            do {
                try await Task.sleep(for: .seconds(600))
            } catch {
                sawCancelResolver.fulfill(Task.isCancelled)
                throw error
            }
            return 0
        }
        _ = try await awaitOutcome("the task to start") { await started.outcome }.get()
        long.cancel()
        let seen = try await awaitOutcome("the task to see the cancellation") { await sawCancel.outcome }
        #expect(try seen.get() == .fulfilled(true))
        #expect(try await awaitOutcome { await long.outcome }.get().isCancelled)
    }
}

extension ConcurrencyTests {
    @Test("a task awaiting a promise no one can settle, once cancelled, lets go of it and of its waiter")
    func abandonedAwaitFreed() async throws {
        let storage = Weak<AnyObject>(nil)
        let (waiting, wait) = Promise<Void, Never>.makePending()
        let task = Task {
            let promise = Promise<Int, TestError> { _ in }
            storage.set(promise.storage)
            wait.fulfill(())
            return await promise.outcome
        }
        _ = try await BatchedPromisesTests.outcome(of: waiting)
        task.cancel()
        #expect(await task.value.isCancelled)
        try await eventually("the awaited promise to be freed") { storage.object == nil }
    }

    @Test("a promise made from async work is freed, with the work's closure, once the work ends and no one holds it")
    func asyncWorkFreed() async throws {
        let (ended, end) = Promise<Void, Never>.makePending()
        try await expectAllFreed("the promise and the closure of its work") {
            let sentinel = Sentinel()
            let promise = Promise<Int, any Error> {
                withExtendedLifetime(sentinel) {}
                end.fulfill(())
                return 1
            }
            return [promise.storage, sentinel]
        }
        _ = try await BatchedPromisesTests.outcome(of: ended)
    }
}
