import Dispatch
import QXPromises
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process-wide default queue.
///
/// Every other QX suite runs in parallel with this one and makes promises with the default queue
/// (the main queue), so this suite never changes the default in the test process: `.serialized`
/// only orders tests within one suite. The check that changing it takes effect runs in an exit
/// test, a child process of its own, where no other test can see the change.
@Suite("QX default queue")
struct QXDefaultQueueTests {
    @Test("the default queue is main, and promises made without a queue use it")
    func defaultIsMain() async throws {
        // Compared by label: on Linux each `DispatchQueue.main` is a new wrapper object.
        let main = DispatchQueue.main.label
        #expect(QXPromise.defaultQueue.label == main)
        #expect(QXPromise.pending().promise.callbackQueue.label == main)
        #expect(QXPromise(fulfilledWith: 0).callbackQueue.label == main)
        let onMain = Recorder<Bool>()
        try await waitUntil { done in
            QXPromise(fulfilledWith: 0).then { value in
                onMain.record(MainQueue.isCurrent)
                done()
                return value
            }
        }
        #expect(onMain.all == [true])
    }

    @Test("a promise made with a queue uses it, whatever the default")
    func explicitQueue() async throws {
        let queue = TaggedQueue("qx.explicit")
        #expect(QXPromise.pending(on: queue.queue).promise.callbackQueue === queue.queue)
        let onQueue = Recorder<Bool>()
        try await waitUntil { done in
            QXPromise(fulfilledWith: 1, on: queue.queue).then(on: queue.queue) { value in
                onQueue.record(queue.isCurrent)
                done()
                return value
            }
        }
        #expect(onQueue.all == [true])
    }

    @Test("changing the default affects promises made afterwards (in a child process)")
    func changingTheDefault() async {
        await #expect(processExitsWith: .success) {
            let queue = TaggedQueue("qx.default")
            let made = Recorder<Weak<QXPromise>>()
            do {
                let before = QXPromise(fulfilledWith: 0)
                made.record(Weak(before))
                QXPromise.defaultQueue = queue.queue
                let pending = QXPromise.pending().promise
                made.record(Weak(pending))
                guard QXPromise.defaultQueue === queue.queue,
                    pending.callbackQueue === queue.queue,
                    before.callbackQueue.label == DispatchQueue.main.label
                else { exit(1) }
                let ran = DispatchSemaphore(value: 0)
                let onQueue = Recorder<Bool>()
                let source = QXPromise(fulfilledWith: 1)
                made.record(Weak(source))
                let link = source.then { value in
                    onQueue.record(queue.isCurrent)
                    ran.signal()
                    return value
                }
                made.record(Weak(link))
                guard ran.wait(timeout: .now() + defaultTestTimeout.timeInterval) == .success, onQueue.all == [true]
                else { exit(2) }
            }
            // A QX promise nothing can settle any more is let go from a global-queue hop. Exiting
            // before that hop ran would leave the promises alive at exit, where LeakSanitizer (in
            // CI's ASan run, which this child inherits) reports their weak-reference side tables
            // and aborts the child. So wait until every promise made here is freed.
            let deadline = ContinuousClock.now + defaultTestTimeout
            while made.all.contains(where: { $0.object != nil }) {
                guard ContinuousClock.now < deadline else { exit(3) }
                usleep(1_000)
            }
        }
    }
}
