import BatchedPromises
import Dispatch
import TestSupport
import Testing

/// The scheduling contract (the module's SchedulingContract article): a callback that becomes
/// runnable in a drain of its queue runs in that drain; what one settle makes runnable for a
/// queue is one batch; a drain runs until none is left, so that no callback overtakes one
/// registered before it; nothing recurses; and callbacks never run on the stack of the call that
/// made them runnable.
@Suite("Batched: where callbacks run")
struct DrainTests {
    @Test("a callback made runnable in a drain of its queue runs there, before blocks queued meanwhile")
    func joinsTheRunningDrain() async throws {
        let queue = TaggedQueue("batched.drain")
        let order = Recorder<String>()
        let (next, resolver) = Promise<Int, Never>.makePending()
        next.then(on: queue.queue) { _ in order.record("next callback") }
        try await waitUntil { done in
            Promise<Int, Never>(value: 1).then(on: queue.queue) { _ in
                // Queued before the settle: a callback dispatched on its own would run after it.
                queue.queue.async {
                    order.record("block")
                    done()
                }
                resolver.fulfill(2)
                order.record("first callback returns")
            }
        }
        #expect(order.all == ["first callback returns", "next callback", "block"])
    }

    @Test("callbacks never run on the stack of the call that settled their promise or registered them")
    func neverOnTheCallersStack() async throws {
        let queue = TaggedQueue("batched.stack")
        let order = Recorder<String>()
        try await waitUntil { done in
            Promise<Int, Never>(value: 1).then(on: queue.queue) { _ in
                let settled = Promise<Int, Never>(value: 2)
                settled.then(on: queue.queue) { _ in
                    order.record("late callback")
                    done()
                }
                order.record("then returned")
            }
        }
        #expect(order.all == ["then returned", "late callback"])
        let (promise, resolver) = Promise<Int, Never>.makePending()
        try await waitUntil { done in
            promise.then(on: queue.queue) { _ in
                order.record("after fulfill")
                done()
            }
            queue.queue.sync {
                resolver.fulfill(1)
                order.record("fulfill returned")
            }
        }
        #expect(order.all.suffix(2) == ["fulfill returned", "after fulfill"])
    }

    @Test("callbacks on one promise for one queue run in the order they were registered")
    func registrationOrder() async throws {
        let queue = TaggedQueue("batched.order")
        let (promise, resolver) = Promise<Int, Never>.makePending()
        let order = Recorder<Int>()
        for index in 0..<100 { promise.then(on: queue.queue) { _ in order.record(index) } }
        try await waitUntil { done in
            promise.then(on: queue.queue) { _ in done() }
            resolver.fulfill(0)
        }
        #expect(order.all == Array(0..<100))
    }

    @Test("a drain hands its queue back after 1,024 callbacks: a block queued meanwhile runs, then the rest, in order")
    func drainHandsTheQueueBack() async throws {
        let queue = TaggedQueue("batched.hands-back")
        let ran = Recorder<Int>()
        let (root, resolver) = Promise<Int, Never>.makePending()
        var last = root
        for _ in 0..<3_000 {
            last = last.map(on: queue.queue) { value in
                ran.record(value)
                return value + 1
            }
        }
        let seenByBlock = Recorder<Int>()
        try await waitUntil { done in
            queue.queue.sync {
                // In a block of the queue: the root's callback is dispatched as a batch, behind this
                // block and ahead of the marker.
                resolver.fulfill(0)
                queue.queue.async {
                    seenByBlock.record(ran.count)
                    done()
                }
            }
        }
        #expect(seenByBlock.all == [1_024])
        #expect(try await value(of: last) == 3_000)
        #expect(ran.all == Array(0..<3_000))
    }

    @Test("a block queued while a long chain drains on its queue runs after at most 1,024 more of its callbacks")
    func blockQueuedDuringALongDrain() async throws {
        let queue = TaggedQueue("batched.foreign-block")
        let ran = Recorder<Int>()
        let seenByBlock = Recorder<Int>()
        let (root, resolver) = Promise<Int, Never>.makePending()
        var last = root
        for index in 0..<5_000 {
            last = last.map(on: queue.queue) { value in
                ran.record(value)
                // From inside the drain: a plain block of the user's, behind the drain.
                if index == 10 { queue.queue.async { seenByBlock.record(ran.count) } }
                return value + 1
            }
        }
        resolver.fulfill(0)
        #expect(try await value(of: last) == 5_000)
        try await waitUntil { done in queue.queue.async { done() } }
        // The drain that ran the eleventh callback hands the queue back after its 1,024th.
        #expect(seenByBlock.all == [1_024])
        #expect(ran.all == Array(0..<5_000))
    }

    @Test("a callback registered on a settled promise runs after the ones registered before it, however long the drain")
    func lateRegistrationAfterALongDrain() async throws {
        let queue = TaggedQueue("batched.late")
        let order = Recorder<String>()
        let (source, sourceResolver) = Promise<Int, Never>.makePending()
        let (settled, resolver) = Promise<Int, Never>.makePending()
        try await waitUntil("both callbacks") { done in
            // Both recording callbacks run on `queue`, one after the other: the one that records
            // second sees the count reach 2, whichever it is.
            @Sendable func record(_ event: String) {
                order.record(event)
                if order.count == 2 { done() }
            }
            settled.then(on: queue.queue) { _ in record("registered first") }
            // One drain of the queue: the first callback settles `settled` (its callback joins the
            // end of the drain, behind the 3,000 below, after the drain has handed the queue back
            // twice); the second registers on it, settled and still handing out: it joins that
            // hand-out, behind the callback registered first (a block of its own would have reached
            // the queue before the rest of the drain).
            source.then(on: queue.queue) { _ in resolver.fulfill(1) }
            source.then(on: queue.queue) { _ in
                settled.then(on: queue.queue) { _ in record("registered on the settled promise") }
            }
            for _ in 0..<3_000 { source.then(on: queue.queue) { _ in } }
            sourceResolver.fulfill(0)
        }
        #expect(order.all == ["registered first", "registered on the settled promise"])
    }

    @Test("a chain of 1,000,000 links settles and is freed without a deep stack")
    func millionLinks() async throws {
        let links = stressSize(1_000_000)
        let queue = DispatchQueue(label: "batched.million")
        let (root, resolver) = Promise<Int, Never>.makePending()
        let last = try await offPool("building the chain", timeout: longTimeout(.seconds(120))) {
            var last = root
            for _ in 0..<links { last = last.map(on: queue) { $0 + 1 } }
            return last
        }
        resolver.fulfill(0)
        #expect(try await value(of: last, timeout: longTimeout(.seconds(120))) == links)
    }

    @Test("the main queue: a promise settled by a main-actor callback runs the next one in the same turn")
    @MainActor
    func mainQueueTurn() async throws {
        let order = Recorder<String>()
        let (next, resolver) = Promise<Int, Never>.makePending()
        next.whenComplete(on: MainActor.shared) { _ in order.record("next") }
        let (blockRan, blockResolver) = Promise<Void, Never>.makePending()
        Promise<Int, Never>(value: 1).whenComplete(on: MainActor.shared) { _ in
            DispatchQueue.main.async {
                order.record("block")
                blockResolver.fulfill(())
            }
            resolver.fulfill(2)
        }
        _ = try await outcome(of: blockRan)
        #expect(order.all == ["next", "block"])
    }

    @Test("callbacks for other queues made runnable in a drain are dispatched to them, in order")
    func otherQueues() async throws {
        let first = TaggedQueue("batched.first")
        let second = TaggedQueue("batched.second")
        let (promise, resolver) = Promise<Int, Never>.makePending()
        let seen = Recorder<String>()
        for index in 0..<10 {
            promise.then(on: second.queue) { _ in seen.record("\(index) \(second.isCurrent)") }
        }
        try await waitUntil { done in
            promise.then(on: second.queue) { _ in done() }
            Promise<Int, Never>(value: 0).then(on: first.queue) { _ in resolver.fulfill(1) }
        }
        #expect(seen.all == (0..<10).map { "\($0) true" })
    }
}
