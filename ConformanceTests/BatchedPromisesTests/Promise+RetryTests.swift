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
        let started = Recorder<Bool>()
        let promise = Promise<Int, TestError>.retry(attempts: 10, on: .global()) {
            attempts.record(0)
            return Promise { resolver in
                resolver.onCancel { told.record(true) }
                started.record(true)
            }
        }
        try await eventually("the first attempt") { started.count == 1 }
        promise.cancel()
        #expect(try await outcome(of: promise).isCancelled)
        try await eventually("the attempt to be told") { told.count == 1 }
        #expect(attempts.count == 1)
    }
}
