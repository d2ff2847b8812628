import BatchedPromises
import Dispatch
import TestSupport
import Testing

@Suite("Batched: always")
struct AlwaysTests {
    @Test("always runs for a value, a failure and a cancellation, and passes the outcome on")
    func runsEveryTime() async throws {
        let ran = Recorder<String>()
        let fulfilled = Promise<Int, TestError>(value: 1).always(on: .global()) { ran.record("value") }
        #expect(try await value(of: fulfilled) == 1)
        let rejected = Promise<Int, TestError>(failure: TestError(2)).always(on: .global()) { ran.record("failure") }
        #expect(try await outcome(of: rejected).failure == TestError(2))
        let (pending, _) = Promise<Int, TestError>.makePending()
        let cancelled = pending.always(on: .global()) { ran.record("cancelled") }
        pending.cancel()
        #expect(try await outcome(of: cancelled).isCancelled)
        #expect(Set(ran.all) == ["value", "failure", "cancelled"])
    }
}
