import Dispatch
import PromiseInterface
import QXPromises
import TestSupport
import Testing

/// Changes the global default queue, so it runs on its own and restores it.
@Suite("QX default queue", .serialized)
struct QXDefaultQueueTests {
    @Test("the default queue is main; changing it affects promises made afterwards")
    func defaultQueue() async throws {
        #expect(QXPromise.defaultQueue.label == DispatchQueue.main.label)
        let onMain = Recorder<Bool>()
        try await waitUntil { done in
            QXPromise(fulfilledWith: 0).then { value in
                onMain.record(MainQueue.isCurrent)
                done()
                return value
            }
        }
        #expect(onMain.all == [true])
        let queue = TaggedQueue("qx.default")
        QXPromise.defaultQueue = queue.queue
        defer { QXPromise.defaultQueue = .main }
        let onQueue = Recorder<Bool>()
        try await waitUntil { done in
            QXPromise(fulfilledWith: 1).then { value in
                onQueue.record(queue.isCurrent)
                done()
                return value
            }
        }
        #expect(onQueue.all == [true])
        #expect(QXPromise.pending().promise.callbackQueue === queue.queue)
    }
}
