import BatchedPromises
import Dispatch
import TestSupport
import Testing

@Suite("Batched: cancellation up a chain")
struct CancellationTests {
    @Test("cancelling a pending promise settles it as cancelled; its callbacks see it; its step never runs")
    func cancelPending() async throws {
        let (root, resolver) = Promise<Int, Never>.makePending()
        let ran = Recorder<Int>()
        let link = root.map(on: .global()) { value in
            ran.record(value)
            return value
        }
        link.cancel()
        #expect(try await outcome(of: link).isCancelled)
        resolver.fulfill(1)
        try await waitUntil { done in DispatchQueue.global().async { done() } }
        #expect(ran.all.isEmpty)
    }

    @Test("the promises a cancelled link waits on are cancelled when no one else waits for them")
    func walksUp() async throws {
        let (root, resolver) = Promise<Int, Never>.makePending()
        let handlers = Recorder<String>()
        resolver.onCancel { handlers.record("producer") }
        let end = root.map(on: .global()) { $0 + 1 }.map(on: .global()) { $0 + 1 }
        end.cancel()
        #expect(root.currentOutcome?.isCancelled == true)
        #expect(handlers.all == ["producer"])
    }

    @Test("a producer whose cancellation handler lets go of its promise's last reference: the walk goes on")
    func handlerFreesItsPromise() async throws {
        // Each input is held only by its resolver, which its own cancellation handler drops (as a
        // request's completion does when the request is cancelled): the walk that runs the handler
        // must not be what the promise's deinitializer waits for.
        let resolvers = Recorder<Promise<Int, Never>.Resolver>()
        let stopped = Recorder<Int>()
        let all = Promise.all(
            (0..<3).map { index in
                Promise<Int, Never> { resolver in
                    resolvers.record(resolver)
                    resolver.onCancel {
                        resolvers.removeAll()
                        stopped.record(index)
                    }
                }
            })
        try await waitUntil { done in
            DispatchQueue.global().async {
                all.cancel()
                done()
            }
        }
        #expect(stopped.all.sorted() == [0, 1, 2])
    }

    @Test("a promise another dependent still waits for is not cancelled")
    func sharedInputStays() async throws {
        let (root, resolver) = Promise<Int, Never>.makePending()
        let first = root.map(on: .global()) { $0 + 1 }
        let second = root.map(on: .global()) { $0 + 2 }
        first.cancel()
        #expect(root.isPending)
        resolver.fulfill(1)
        #expect(try await value(of: second) == 3)
        #expect(try await outcome(of: first).isCancelled)
    }

    @Test("an observer keeps its promise wanted; a cancellation handler does not")
    func whatKeepsAPromise() async throws {
        let (root, _) = Promise<Int, Never>.makePending()
        root.whenComplete(on: .global()) { _ in }
        let link = root.map(on: .global()) { $0 }
        link.cancel()
        #expect(root.isPending)
        let (other, otherResolver) = Promise<Int, Never>.makePending()
        otherResolver.onCancel {}
        let otherLink = other.map(on: .global()) { $0 }
        otherLink.cancel()
        #expect(other.currentOutcome?.isCancelled == true)
    }

    @Test("cancelling a settled promise does nothing")
    func settledStays() {
        let promise = Promise<Int, Never>(value: 1)
        promise.cancel()
        #expect(promise.currentOutcome == .fulfilled(1))
    }

    @Test("cancelling the end of a 100,000-link chain walks it in a loop, not a deep stack")
    func longWalk() async throws {
        let (root, resolver) = Promise<Int, Never>.makePending()
        let cancelled = Recorder<Bool>()
        resolver.onCancel { cancelled.record(true) }
        let links = stressSize(100_000)
        let last = try await offPool("building the chain") {
            var last = root
            for _ in 0..<links { last = last.map(on: .global()) { $0 + 1 } }
            return last
        }
        last.cancel()
        #expect(cancelled.all == [true])
        #expect(try await outcome(of: last).isCancelled)
    }

    @Test("a flatMap's adopted promise is cancelled with it, and its producer told")
    func adoptedPromiseCancelled() async throws {
        let (inner, innerResolver) = Promise<Int, Never>.makePending()
        let told = Recorder<Bool>()
        innerResolver.onCancel { told.record(true) }
        let queue = DispatchQueue(label: "batched.adopt")
        let outer = Promise<Int, Never>(value: 1).flatMap(on: queue) { _ in inner }
        // The callback and the adoption run in one drain of the queue: a block after it sees both.
        try await waitUntil { done in queue.async { done() } }
        outer.cancel()
        #expect(told.all == [true])
        #expect(inner.currentOutcome?.isCancelled == true)
    }

    @Test("cancellation racing settlement from many threads: one outcome, every observer sees it")
    func cancelRacesSettle() async throws {
        for _ in 0..<stressSize(200) {
            let (root, resolver) = Promise<Int, Never>.makePending()
            let link = root.map(on: .global()) { $0 + 1 }
            let seen = Recorder<String>()
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                if index % 2 == 0 { link.cancel() } else { resolver.fulfill(index) }
            }
            try await waitUntil { done in
                link.whenComplete(on: .global()) { outcome in
                    switch outcome {
                    case .fulfilled: seen.record("fulfilled")
                    case .cancelled: seen.record("cancelled")
                    }
                    done()
                }
            }
            #expect(seen.count == 1)
        }
    }
}
