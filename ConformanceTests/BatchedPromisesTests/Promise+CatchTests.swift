import BatchedPromises
import Dispatch
import TestSupport
import Testing

@Suite("Batched: catch")
struct CatchTests {
    @Test("catch sees the failure on its queue and passes the rejection on")
    func observesFailure() async throws {
        let queue = TaggedQueue("batched.catch")
        let seen = Recorder<String>()
        let promise = Promise<Int, TestError>(failure: TestError(4)).catch(on: queue.queue) { error in
            seen.record("\(error.code) \(queue.isCurrent)")
        }
        #expect(try await outcome(of: promise).failure == TestError(4))
        #expect(seen.all == ["4 true"])
    }

    @Test("catch does not run for a value, which passes on")
    func skipsValue() async throws {
        let seen = Recorder<TestError>()
        let promise = Promise<Int, TestError>(value: 2).catch(on: .global()) { seen.record($0) }
        #expect(try await value(of: promise) == 2)
        #expect(seen.all.isEmpty)
    }
}
