import Dispatch
import FBLPromises
import TestSupport
import Testing

@Suite("FBL recover")
struct FBLRecoverTests {
    @Test("recover replaces a rejection with a value, on its queue")
    func recoversWithValue() async throws {
        let queue = TaggedQueue("fbl.recover")
        let onQueue = Recorder<Bool>()
        let promise = FBLPromise<Int>(TestError()).recover(on: queue.queue) { _ -> Int in
            onQueue.record(queue.isCurrent)
            return 7
        }
        #expect(try await value(of: promise) == 7)
        #expect(onQueue.all == [true])
    }

    @Test("recover adopts a returned promise")
    func recoversWithPromise() async throws {
        let promise = FBLPromise<Int>(TestError()).recover(on: .global()) { _ in FBLPromise(8) }
        #expect(try await value(of: promise) == 8)
    }

    @Test("recover can fail again by throwing")
    func recoveryThrows() async throws {
        let promise = FBLPromise<Int>(TestError(1)).recover(on: .global()) { _ -> Int in throw TestError(2) }
        #expect(try await error(of: promise) as? TestError == TestError(2))
    }

    @Test("a fulfilment skips recover")
    func skippedOnFulfilment() async throws {
        let called = Recorder<Bool>()
        let promise = FBLPromise(3).recover(on: .global()) { _ -> Int in
            called.record(true)
            return 0
        }
        #expect(try await value(of: promise) == 3)
        #expect(called.all.isEmpty)
    }
}
