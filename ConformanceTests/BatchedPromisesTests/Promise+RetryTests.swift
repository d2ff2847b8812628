import BatchedPromises
import Dispatch
import TestSupport
import Testing

@Suite("Batched: retry")
struct RetryTests {
    @Test("retry calls the attempt again until one is fulfilled")
    func retriesUntilFulfilled() async throws {
        let attempts = Recorder<Int>()
        let promise = Promise<Int, TestError>.retry(attempts: 5, on: .global()) {
            attempts.record(0)
            return attempts.count < 3 ? Promise(failure: TestError(attempts.count)) : Promise(value: 42)
        }
        #expect(try await value(of: promise) == 42)
        #expect(attempts.count == 3)
    }

    @Test("retry gives up after its attempts, or when the failure is not worth another, with the last failure")
    func givesUp() async throws {
        let attempts = Recorder<Int>()
        let exhausted = Promise<Int, TestError>.retry(attempts: 3, delay: .milliseconds(1), on: .global()) {
            attempts.record(0)
            return Promise(failure: TestError(attempts.count))
        }
        #expect(try await outcome(of: exhausted).failure == TestError(3))
        let refused = Promise<Int, TestError>.retry(attempts: 3, on: .global(), while: { $0.code != 1 }) {
            Promise(failure: TestError(1))
        }
        #expect(try await outcome(of: refused).failure == TestError(1))
    }

    @Test("cancelling a retry cancels the attempt under way and stops the retries")
    func cancelStops() async throws {
        let attempts = Recorder<Int>()
        let told = Recorder<Bool>()
        // Signals: an attempt has registered its cancellation handler; that handler has run.
        let (started, start) = Promise<Void, Never>.makePending()
        let (stopped, stop) = Promise<Void, Never>.makePending()
        // The attempts' resolvers, as the work they stand for would hold them: a retry holds its
        // attempt only through the attempt's own callback, so an attempt no one can settle is freed.
        let work = Recorder<Promise<Int, TestError>.Resolver>()
        let promise = Promise<Int, TestError>.retry(attempts: 10, on: .global()) {
            attempts.record(0)
            return Promise { resolver in
                work.record(resolver)
                resolver.onCancel {
                    told.record(true)
                    stop.fulfill(())
                }
                start.fulfill(())
            }
        }
        _ = try await outcome(of: started)
        // The retry may not be waiting on the attempt yet: it withdraws from it as soon as it does.
        promise.cancel()
        #expect(try await outcome(of: promise).isCancelled)
        _ = try await outcome(of: stopped)
        #expect(told.count == 1)
        #expect(attempts.count == 1)
        work.removeAll()
    }
}

@Suite("Batched: retry, misuse and lifetime")
struct RetryMisuseTests {
    @Test("a retry whose attempt can never settle is freed with its attempt and their closures once nothing holds them")
    func abandonedAttemptFreed() async throws {
        let retry = Weak<AnyObject>(nil)
        let attempt = Weak<AnyObject>(nil)
        let captured = Weak<Sentinel>(nil)
        let (asked, ask) = Promise<Void, Never>.makePending()
        do {
            let sentinel = Sentinel()
            captured.set(sentinel)
            let promise = Promise<Int, TestError>.retry(attempts: 3, on: .global()) {
                withExtendedLifetime(sentinel) {}
                // No one can settle it: its resolver is dropped at once.
                let never = Promise<Int, TestError> { _ in }
                attempt.set(never.storage)
                ask.fulfill(())
                return never
            }
            retry.set(promise.storage)
            _ = try await outcome(of: asked)
        }
        try await eventually("the retry, its attempt and the attempt's closure to be freed") {
            retry.object == nil && attempt.object == nil && captured.object == nil
        }
    }

    @Test("retry with fewer than one attempt makes none and rejects with InvalidArgument where the failure can hold it")
    func noAttemptRejects() async throws {
        for attempts in [0, -1] {
            let called = Recorder<Int>()
            let promise = Promise<Int, any Error>.retry(attempts: attempts, on: .global()) {
                called.record(0)
                return Promise(value: 1)
            }
            let failure = try #require(try await outcome(of: promise).failure as? InvalidArgument)
            #expect(failure.message == "retry(attempts:) needs at least one attempt, and was given \(attempts)")
            #expect(called.count == 0)
        }
    }

    @Test("retry with no attempt and a failure type that cannot hold InvalidArgument stops, saying why")
    func noAttemptWithTypedFailureStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Promise<Int, TestError>.retry(attempts: 0, on: .global()) { Promise(value: 1) }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("BatchedPromises: retry(attempts:) needs at least one attempt, and was given 0"))
        #expect(message.contains("Failure is TestError"))
    }
}
