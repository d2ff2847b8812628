import Dispatch
import QXPromises
import TestSupport
import Testing

@Suite("QX progress")
struct QXProgressTests {
    @Test("progress reported by the work reaches a handler on the promise")
    func handlerOnPromise() async throws {
        let (promise, resolver) = QXPromise.pending(on: .global())
        let queue = TaggedQueue("qx.progress")
        let reports = Recorder<String>()
        try await waitUntil { done in
            promise.progress(on: queue.queue) { proportion, value in
                reports.record("\(proportion) \(value as? String ?? "-") \(queue.isCurrent)")
                if proportion == 1 { done() }
            }
            resolver.progress(0.5, "half")
            resolver.progress(1)
        }
        #expect(reports.all == ["0.5 half true", "1.0 - true"])
    }

    @Test("progress propagates down a chain to a handler on its last link")
    func propagatesDownChain() async throws {
        let (head, resolver) = QXPromise.pending(on: .global())
        let queue = DispatchQueue(label: "qx.progress.chain")
        let tail = head.then(on: queue) { $0 }.then(on: queue) { $0 }.catch(on: queue) { _ in nil }
        let reports = Recorder<Double>()
        try await waitUntil { done in
            tail.progress(on: queue) { proportion, _ in
                reports.record(proportion)
                if proportion == 0.75 { done() }
            }
            resolver.progress(0.25)
            resolver.progress(0.75)
        }
        #expect(reports.all == [0.25, 0.75])
    }

    @Test("progress of a promise returned by a step reaches the chain's handler")
    func throughReturnedPromise() async throws {
        let (inner, innerResolver) = QXPromise.pending(on: .global())
        let queue = DispatchQueue(label: "qx.progress.inner")
        let tail = QXPromise(fulfilledWith: 1).then(on: queue) { _ in inner }.then(on: queue) { $0 }
        let reports = Recorder<Double>()
        try await waitUntil { done in
            tail.progress(on: queue) { proportion, _ in
                reports.record(proportion)
                done()
            }
            // The link observes `inner` only once its block has run.
            Task {
                try await eventually("the link to observe the inner promise") {
                    inner.observerCount > 0
                }
                innerResolver.progress(0.4)
            }
        }
        #expect(reports.all == [0.4])
        innerResolver.fulfill(nil)
    }

    @Test("proportions are clamped to 0...1, NaN is ignored, nothing is reported after settling")
    func badReports() async throws {
        let (promise, resolver) = QXPromise.pending(on: .global())
        let queue = DispatchQueue(label: "qx.progress.bad")
        let reports = Recorder<Double>()
        try await waitUntil { done in
            promise.progress(on: queue) { proportion, _ in
                reports.record(proportion)
                if reports.count == 2 { done() }
            }
            resolver.progress(.nan)
            resolver.progress(-1)
            resolver.progress(7)
        }
        resolver.fulfill(1)
        resolver.progress(0.5)
        #expect(promise.properties.progress?.proportion == 1)
        // Draining the handler's queue shows that nothing else arrived.
        queue.sync {}
        #expect(reports.all == [0, 1])
    }

    @Test("progress racing settlement: no handler call after the promise is seen settled, progress frozen at settling")
    func reportsRacingSettlement() async throws {
        for round in 0..<100 {
            let (promise, resolver) = QXPromise.pending(on: .global())
            // One serial queue for the handler and for the block that sees the promise settled.
            let queue = DispatchQueue(label: "qx.progress.race")
            let events = Recorder<String>()
            let atSettlement = Recorder<Double?>()
            promise.progress(on: queue) { _, _ in events.record("progress") }
            let seen = promise.then(on: queue) { value in
                events.record("settled")
                atSettlement.record(promise.properties.progress?.proportion)
                return value
            }
            try await waitUntil("the reporter, round \(round)") { done in
                DispatchQueue.global().async {
                    for step in 1...200 { resolver.progress(Double(step) / 200) }
                    done()
                }
                DispatchQueue.global().async { resolver.fulfill(round) }
            }
            #expect(try await value(of: seen) as? Int == round)
            // Drains every handler dispatched so far.
            queue.sync {}
            #expect(events.all.last == "settled", "a progress handler ran after the promise was seen settled")
            #expect(atSettlement.all == [promise.properties.progress?.proportion], "progress changed after settling")
        }
    }
}
