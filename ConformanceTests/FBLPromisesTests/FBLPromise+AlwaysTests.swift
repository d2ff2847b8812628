import Dispatch
import FBLPromises
import TestSupport
import Testing

@Suite("FBL always")
struct FBLAlwaysTests {
    @Test("always runs after a fulfilment, on its queue, and passes the value on")
    func afterFulfilment() async throws {
        let queue = TaggedQueue("fbl.always")
        let ran = Recorder<Bool>()
        let promise = FBLPromise(1).always(on: queue.queue) { ran.record(queue.isCurrent) }
        #expect(try await value(of: promise) == 1)
        #expect(ran.all == [true])
    }

    @Test("always runs after a rejection and passes the error on")
    func afterRejection() async throws {
        let ran = Recorder<Bool>()
        let promise = FBLPromise<Int>(TestError(2)).always(on: .global()) { ran.record(true) }
        #expect(try await error(of: promise) as? TestError == TestError(2))
        #expect(ran.all == [true])
    }
}
