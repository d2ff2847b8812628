import Dispatch
import QXPromises
import TestSupport
import Testing

@Suite("QX then")
struct QXThenTests {
    @Test("then maps the value")
    func mapsValue() async throws {
        let promise = QXPromise(fulfilledWith: 2).then(on: .global()) { ($0 as! Int) * 10 }
        #expect(try await value(of: promise) as? Int == 20)
    }

    @Test("a promise returned from a then block is observed in turn")
    func returnedPromiseObserved() async throws {
        let (inner, innerResolver) = QXPromise.pending(on: .global())
        let link = QXPromise(fulfilledWith: 1).then(on: .global()) { _ in inner }
        try await eventually("the link to observe the returned promise") {
            inner.observerCount == 1
        }
        #expect(link.state == .pending)
        innerResolver.fulfill(3)
        #expect(try await value(of: link) as? Int == 3)
    }

    @Test("a thenable returned from a then block is assimilated")
    func returnedThenable() async throws {
        let link = QXPromise(fulfilledWith: 1).then(on: .global()) { _ in ScriptThenable { resolve, _ in resolve(4) } }
        #expect(try await value(of: link) as? Int == 4)
    }

    @Test("a link made from inside a state observer, on the settling thread, runs after the links made before it")
    func reentrantLinkKeepsOrder() async throws {
        let queue = DispatchQueue(label: "qx.then.reentrant")
        let (promise, resolver) = QXPromise.pending(on: queue)
        let order = Recorder<String>()
        let kept = Recorder<QXObservation>()
        try await waitUntil("the link made during the delivery") { done in
            // Registered first, so the settling thread tells it before the two links below; its
            // handler runs on that thread, in the middle of the delivery, and makes a third link.
            kept.record(
                promise.observe(\.state) { promise, change in
                    guard change.newValue == .fulfilled else { return }
                    promise.then(on: queue) { value in
                        order.record("made during the delivery")
                        done()
                        return value
                    }
                })
            promise.then(on: queue) { value in
                order.record("first")
                return value
            }
            promise.then(on: queue) { value in
                order.record("second")
                return value
            }
            resolver.fulfill(1)
        }
        #expect(order.all == ["first", "second", "made during the delivery"])
    }

    @Test("a throw from the block rejects the link")
    func throwRejects() async throws {
        let link = QXPromise(fulfilledWith: 1).then(on: .global()) { _ in throw TestError(5) }
        #expect(try await error(of: link) as? TestError == TestError(5))
    }

    @Test("a rejection passes through without calling the block")
    func rejectionPassesThrough() async throws {
        let calls = Recorder<Int>()
        let link = QXPromise(rejectedWith: TestError(6)).then(on: .global()) { value in
            calls.record(1)
            return value
        }
        #expect(try await error(of: link) as? TestError == TestError(6))
        #expect(calls.count == 0)
    }

    @Test("several thens on one promise run in the order they were added")
    func order() async throws {
        let (source, resolver) = QXPromise.pending(on: .global())
        let queue = DispatchQueue(label: "qx.then.order")
        let calls = Recorder<Int>()
        let links = (1...5).map { index in
            source.then(on: queue) { value in
                calls.record(index)
                return value
            }
        }
        resolver.fulfill(0)
        for link in links { _ = try await value(of: link) }
        #expect(calls.all == [1, 2, 3, 4, 5])
    }

    @Test("settling a promise runs no block inside the settling call: the observer only dispatches it")
    func settlingDispatches() async throws {
        let (source, resolver) = QXPromise.pending(on: .global())
        let queue = TaggedQueue("qx.then.settle")
        let fulfilReturned = Recorder<Bool>()
        let ranInside = Recorder<Bool>()
        try await waitUntil { done in
            source.then(on: queue.queue) { value in
                ranInside.record(fulfilReturned.count == 0)
                done()
                return value
            }
            // On the link's own queue: had the observer run the block synchronously, it would have
            // run here, inside `fulfill`.
            queue.queue.sync {
                resolver.fulfill(1)
                fulfilReturned.record(true)
            }
        }
        #expect(ranInside.all == [false])
    }

    @Test("thens added from many threads while the promise settles each run exactly once")
    func concurrentThensAndSettle() async throws {
        let (source, resolver) = QXPromise.pending(on: .global())
        let count = 500
        let calls = Recorder<Int>()
        let links = Recorder<QXPromise>()
        DispatchQueue.concurrentPerform(iterations: count + 1) { index in
            guard index != count / 2 else {
                resolver.fulfill(1)
                return
            }
            links.record(
                source.then(on: .global()) { value in
                    calls.record(index)
                    return value
                }
            )
        }
        for link in links.all { #expect(try await value(of: link) as? Int == 1) }
        #expect(calls.count == count)
        #expect(Set(calls.all).count == count)
        #expect(source.observerCount == 0)
    }

    @Test("chain with both blocks runs only the one that matches")
    func chainBothBlocks() async throws {
        let fulfilled = QXPromise(fulfilledWith: 1).chain(
            on: .global(),
            thenBlock: { _ in "then" },
            catchBlock: { _ in "catch" }
        )
        #expect(try await value(of: fulfilled) as? String == "then")
        let rejected = QXPromise(rejectedWith: TestError()).chain(
            on: .global(),
            thenBlock: { _ in "then" },
            catchBlock: { _ in "catch" }
        )
        #expect(try await value(of: rejected) as? String == "catch")
    }
}
