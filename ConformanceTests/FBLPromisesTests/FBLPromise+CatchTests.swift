import Dispatch
import FBLPromises
import TestSupport
import Testing

@Suite("FBL catch")
struct FBLCatchTests {
    @Test("catch sees the error on its queue and passes the rejection on")
    func observesRejection() async throws {
        let queue = TaggedQueue("fbl.catch")
        let seen = Recorder<String>()
        let promise = FBLPromise<Int>(TestError(1)).catch(on: queue.queue) { error in
            seen.record("\(error):\(queue.isCurrent)")
        }
        #expect(try await error(of: promise) as? TestError == TestError(1))
        #expect(seen.all == ["TestError(1):true"])
    }

    @Test("catch is skipped by a fulfilment, which passes through")
    func skippedOnFulfilment() async throws {
        let seen = Recorder<String>()
        let promise = FBLPromise(5).catch(on: .global()) { seen.record("\($0)") }
        #expect(try await value(of: promise) == 5)
        #expect(seen.all.isEmpty)
    }

    @Test("the checkout article's flow: one catch handles a failure anywhere in the chain")
    func checkoutFlow() async throws {
        let steps = Recorder<String>()
        let caught = Recorder<String>()
        let flow = FBLPromise("order-1")
            .then(on: .global()) { order -> String in
                steps.record("pay \(order)")
                throw TestError(402)
            }
            .then(on: .global()) { payment -> String in
                steps.record("check \(payment)")
                return payment
            }
            .catch(on: .global()) { caught.record("\($0)") }
        #expect(try await error(of: flow) as? TestError == TestError(402))
        #expect(steps.all == ["pay order-1"])
        #expect(caught.all == ["TestError(402)"])
    }
}
