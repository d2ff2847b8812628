import BatchedPromises
import Dispatch
import TestSupport
import Testing

@Suite("Batched: flatMap, adoption and linking")
struct FlatMapTests {
    @Test("flatMap settles as the returned promise")
    func adopts() async throws {
        let (later, resolver) = Promise<Int, TestError>.makePending()
        let promise = Promise<Int, TestError>(value: 1).flatMap(on: .global()) { _ in later }
        DispatchQueue.global().async { resolver.fulfill(2) }
        #expect(try await value(of: promise) == 2)
        let rejected = Promise<Int, TestError>(value: 1).flatMap(on: .global()) { _ in
            Promise<Int, TestError>(failure: TestError(3))
        }
        #expect(try await outcome(of: rejected).failure == TestError(3))
    }

    @Test("then with a promise-returning callback is flatMap")
    func thenAdopts() async throws {
        let promise = Promise<Int, Never>(value: 1).then(on: .global()) { value in Promise<Int, Never>(value: value + 1)
        }
        #expect(try await value(of: promise) == 2)
    }

    @Test("a promise adopted twice settles both adopters")
    func adoptedTwice() async throws {
        let (shared, resolver) = Promise<Int, Never>.makePending()
        let first = Promise<Int, Never>(value: 0).flatMap(on: .global()) { _ in shared }
        let second = Promise<Int, Never>(value: 0).flatMap(on: .global()) { _ in shared }
        resolver.fulfill(5)
        #expect(try await value(of: first) == 5)
        #expect(try await value(of: second) == 5)
        #expect(try await value(of: shared) == 5)
    }

    @Test("a recursive loop of 10,000 steps keeps one root and frees every step's promise behind it")
    func recursiveLoopStaysSmall() async throws {
        let steps = stressSize(10_000)
        let queue = DispatchQueue(label: "batched.loop")
        let firstStep = Weak<AnyObject>(nil)
        @Sendable func loop(_ count: Int) -> Promise<Int, Never> {
            let step = Promise<Int, Never>(on: queue) { count }
            if count == 1 { firstStep.set(step.storage) }
            return step.flatMap(on: queue) { done in done < steps ? loop(done + 1) : Promise(value: done) }
        }
        let result = loop(1)
        #expect(try await value(of: result, timeout: longTimeout(.seconds(60))) == steps)
        try await eventually("the first step's promise to be freed") { firstStep.object == nil }
    }

    @Test("cancelling a recursive loop's root reaches the step under way at once")
    func cancelReachesTheStepUnderWay() async throws {
        let queue = DispatchQueue(label: "batched.loop.cancel")
        let (gate, open) = Promise<Int, Never>.makePending()
        let told = Recorder<Int>()
        let started = Recorder<Int>()
        let (reached, reach) = Promise<Void, Never>.makePending()
        @Sendable func loop(_ count: Int) -> Promise<Int, Never> {
            started.record(count)
            if count == 50 { reach.fulfill(()) }
            let step: Promise<Int, Never> =
                count < 50
                ? Promise(on: queue) { count }
                : Promise { resolver in
                    resolver.onCancel { told.record(count) }
                    resolver.resolve(gate)
                }
            return step.flatMap(on: queue) { done in loop(done + 1) }
        }
        let root = loop(1)
        // Fulfilled as step 50 starts, inside a callback on `queue`: a later block of the queue
        // sees the step made and adopted.
        _ = try await outcome(of: reached)
        try await waitUntil { done in queue.async { done() } }
        root.cancel()
        #expect(told.all == [50])
        open.fulfill(0)
        #expect(try await outcome(of: root).isCancelled)
        try await waitUntil { done in queue.async { done() } }
        #expect(started.count == 50)
    }

    @Test("a promise returned by the step that forwards keeps its own callbacks, run with the root's outcome")
    func forwardedKeepsCallbacks() async throws {
        let queue = DispatchQueue(label: "batched.forward.callbacks")
        let (inner, resolver) = Promise<Int, Never>.makePending()
        let seenOnInner = inner.map(on: .global()) { $0 }  // registered before `inner` forwards
        let outer = Promise<Int, Never>(value: 0).flatMap(on: queue) { _ in inner }
        // The adoption runs in the queue's drain: once a later block runs, `inner` forwards.
        try await waitUntil { done in queue.async { done() } }
        resolver.fulfill(8)
        #expect(try await value(of: outer) == 8)
        #expect(try await value(of: seenOnInner) == 8)
        // A callback registered on `inner` after it forwarded.
        #expect(try await value(of: inner.map(on: .global()) { $0 + 1 }) == 9)
    }
}
