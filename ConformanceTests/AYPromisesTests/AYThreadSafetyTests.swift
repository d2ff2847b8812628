import AYPromises
import Dispatch
import TestSupport
import Testing

/// The original's defect: it checks `state` and appends to `handlers` outside its barrier queue,
/// and runs the handlers it took while other threads may still append, so a handler attached
/// while another thread settles can be lost (or the array mutated while it is enumerated).
@Suite("AY thread safety")
struct AYThreadSafetyTests {
    @Test("many threads attach handlers while another settles: every handler runs exactly once")
    func attachWhileSettling() async throws {
        let threads = 8
        let perThread = 100
        let total = threads * perThread
        for round in 0..<20 {
            let deferred = pending()
            let calls = Recorder<Int>()
            let values = Recorder<Int>()
            // Every block runs on this serial queue. A handler is called synchronously inside
            // `pipe` (settled) or `settle` (pending), and calling it only queues its block; so
            // once every attaching and settling thread has returned, every block, a duplicated
            // one included, is already queued here, and a block queued after them runs last.
            let serial = DispatchQueue(label: "AYThreadSafetyTests.attachWhileSettling")
            try await waitUntil("round \(round): every thread returned") { done in
                DispatchQueue.global().async {
                    DispatchQueue.concurrentPerform(iterations: threads + 1) { thread in
                        guard thread < threads else {
                            // The settling thread, racing the attaching ones.
                            deferred.resolve(round)
                            return
                        }
                        for index in 0..<perThread {
                            deferred.promise.thenOn(serial) { value in
                                values.record(value as! Int)
                                calls.record(thread * perThread + index)
                            }
                        }
                    }
                    serial.async { done() }
                }
            }
            #expect(calls.count == total, "a handler ran twice or not at all")
            #expect(Set(calls.all).count == total, "a handler ran twice or not at all")
            #expect(Set(values.all) == [round])
        }
    }

    @Test("many threads settle one promise at once: one outcome wins and every handler sees it once")
    func concurrentSettles() async throws {
        for round in 0..<50 {
            let deferred = pending()
            let seen = Recorder<Int>()
            let handlers = 10
            // As above: once the settling threads have returned, every block is queued here.
            let serial = DispatchQueue(label: "AYThreadSafetyTests.concurrentSettles")
            // Each handler pair records what it saw: a value as is, an error as minus its code.
            for _ in 0..<handlers {
                deferred.promise.thenOn(serial) { value in seen.record(value as! Int) }
                deferred.promise.catchOn(serial) { error in seen.record(-(error as! TestError).code) }
            }
            try await waitUntil("round \(round): every thread returned") { done in
                DispatchQueue.global().async {
                    DispatchQueue.concurrentPerform(iterations: 8) { thread in
                        if thread.isMultiple(of: 2) {
                            deferred.resolve(thread)
                        } else {
                            deferred.reject(TestError(thread))
                        }
                    }
                    serial.async { done() }
                }
            }
            let state = deferred.promise.state
            let winner = try #require(
                state.value.flatMap { $0 as? Int } ?? (state.error as? TestError).map { -$0.code })
            #expect(
                seen.all == Array(repeating: winner, count: handlers),
                "a handler ran twice, not at all or saw another outcome")
        }
    }

    @Test("all over 1,000 inputs settled from many threads keeps input order")
    func allFromManyThreads() async throws {
        let inputs = (0..<1000).map { _ in pending() }
        let combined = AYPromise.all(inputs.map(\.promise))
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: inputs.count) { index in inputs[index].resolve(index) }
        }
        let values = try #require(
            try await value(of: combined, timeout: longTimeout(.seconds(30))) as? [PromiseValue])
        #expect(values.map { $0 as? Int } == Array(0..<1000))
    }
}
