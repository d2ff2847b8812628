import BatchedPromises
import Dispatch
import TestSupport
import Testing

@Suite("Batched: timeout")
struct TimeoutTests {
    @Test("a promise still pending at the deadline is rejected with the timeout's failure, and cancelled")
    func timesOut() async throws {
        let (slow, _) = Promise<Int, TestError>.makePending()
        let timed = slow.timeout(after: .milliseconds(10), on: .global(), failure: TestError(99))
        #expect(try await outcome(of: timed).failure == TestError(99))
        #expect(slow.currentOutcome?.isCancelled == true)
    }

    @Test("a promise that settles in time passes its outcome on")
    func settlesInTime() async throws {
        let timed = Promise<Int, TestError>(value: 1).timeout(after: .seconds(60), on: .global(), failure: TestError(0))
        #expect(try await value(of: timed) == 1)
    }

    @Test("untyped failures time out with PromiseTimeout")
    func untyped() async throws {
        let (slow, _) = Promise<Int, any Error>.makePending()
        let timed = slow.timeout(after: .milliseconds(5), on: .global())
        #expect(try await outcome(of: timed).failure as? PromiseTimeout == PromiseTimeout(interval: .milliseconds(5)))
    }
}

extension TimeoutTests {
    @Test("a timeout on a promise no one can settle is freed with it before its deadline, once nothing holds them")
    func abandonedFreed() async throws {
        try await expectAllFreed("the input and its timeout") {
            let input = Promise<Int, TestError> { _ in }
            let limited = input.timeout(after: .seconds(3600), on: .global(), failure: TestError(1))
            return [input.storage, limited.storage]
        }
    }
}
