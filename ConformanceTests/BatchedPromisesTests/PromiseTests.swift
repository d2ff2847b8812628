import BatchedPromises
import Dispatch
import TestSupport
import Testing

@Suite("Batched: making and reading promises")
struct PromiseTests {
    @Test("makePending gives a pending promise that its resolver settles, once")
    func makePending() async throws {
        let (promise, resolver) = Promise<Int, TestError>.makePending()
        #expect(promise.isPending)
        #expect(promise.currentOutcome == nil)
        resolver.fulfill(1)
        resolver.fulfill(2)
        resolver.reject(TestError(3))
        #expect(!promise.isPending)
        #expect(promise.currentOutcome == .fulfilled(1))
        #expect(try await value(of: promise) == 1)
    }

    @Test("init(_:) hands the resolver to the body at once, on the caller's thread")
    func bodyRunsAtOnce() async throws {
        let ran = Recorder<Bool>()
        let promise = Promise<Int, Never> { resolver in
            ran.record(true)
            resolver.fulfill(7)
        }
        #expect(ran.all == [true])
        #expect(promise.currentOutcome == .fulfilled(7))
    }

    @Test("init(value:), init(failure:) and init(Result) make settled promises")
    func settled() {
        #expect(Promise<Int, TestError>(value: 1).currentOutcome == .fulfilled(1))
        #expect(Promise<Int, TestError>(failure: TestError(2)).currentOutcome == .rejected(TestError(2)))
        #expect(Promise<Int, TestError>(.success(3)).currentOutcome == .fulfilled(3))
        #expect(Promise<Int, TestError>(.failure(TestError(4))).currentOutcome == .rejected(TestError(4)))
    }

    @Test("init(on:) runs the work on the queue; a throw rejects")
    func workOnQueue() async throws {
        let queue = TaggedQueue("batched.work")
        let onQueue = Recorder<Bool>()
        let fulfilled = Promise<Int, TestError>(on: queue.queue) {
            onQueue.record(queue.isCurrent)
            return 5
        }
        let rejected = Promise<Int, TestError>(on: queue.queue) { () throws(TestError) -> Int in throw TestError(6) }
        #expect(try await value(of: fulfilled) == 5)
        #expect(try await outcome(of: rejected).failure == TestError(6))
        #expect(onQueue.all == [true])
    }

    @Test("init(on:) does not run work for a promise cancelled before it starts")
    func workSkippedWhenCancelled() async throws {
        let held = HeldQueue("batched.work.held")
        let ran = Recorder<Bool>()
        let promise = Promise<Int, Never>(on: held.queue) {
            ran.record(true)
            return 1
        }
        promise.cancel()
        held.release()
        try await waitUntil { done in held.queue.async { done() } }
        #expect(ran.all.isEmpty)
        #expect(promise.currentOutcome?.isCancelled == true)
    }

    @Test("a large value is kept out of line and read back whole")
    func largeValue() async throws {
        let big = (1, 2, 3, 4, 5, 6, 7, 8)
        let promise = Promise<(Int, Int, Int, Int, Int, Int, Int, Int), Never>(value: big)
            .map(on: .global()) { value in value.0 + value.7 }
        #expect(try await value(of: promise) == 9)
        let strings = Promise<[String], Never>(value: ["a", "b"]).map(on: .global()) { $0.joined() }
        #expect(try await value(of: strings) == "ab")
    }

    @Test("a settled promise's outcome is freed with it: a class value is released")
    func outcomeReleased() async throws {
        final class Box: Sendable {}
        var box: Box? = Box()
        let weak = Weak(box)
        var promise: Promise<Box, Never>? = Promise(value: box!)
        box = nil
        #expect(weak.object != nil)
        promise = nil
        _ = promise
        #expect(weak.object == nil)
    }

    @Test("description says the state")
    func description() {
        #expect(Promise<Int, Never>(value: 3).description == "Promise<Int, Never>(fulfilled: 3)")
        #expect(Promise<Int, Never>.makePending().promise.description == "Promise<Int, Never>(pending)")
        let cancelled = Promise<Int, Never>.makePending().promise
        cancelled.cancel()
        #expect(cancelled.description == "Promise<Int, Never>(cancelled)")
    }

    @Test("Outcome.result is the Result of a settled promise, nil when cancelled")
    func outcomeResult() throws {
        let fulfilled = Promise<Int, TestError>.Outcome.fulfilled(1)
        let rejected = Promise<Int, TestError>.Outcome.rejected(TestError(2))
        #expect(try fulfilled.result?.get() == 1)
        guard case .failure(let error)? = rejected.result else {
            Issue.record("not a failure: \(String(describing: rejected.result))")
            return
        }
        #expect(error == TestError(2))
        #expect(Promise<Int, TestError>.Outcome.cancelled.result == nil)
    }
}
