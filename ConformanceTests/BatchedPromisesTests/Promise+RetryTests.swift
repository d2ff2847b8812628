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
        let promise = Promise<Int, TestError>.retry(attempts: 10, on: .global()) {
            attempts.record(0)
            return Promise { resolver in
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
    }
}
