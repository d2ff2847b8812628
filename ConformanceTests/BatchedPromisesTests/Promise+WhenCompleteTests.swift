import BatchedPromises
import Dispatch
import TestSupport
import Testing

@Suite("Batched: whenComplete")
struct WhenCompleteTests {
    @Test("whenComplete hands the outcome to its callback on its queue, for a pending or a settled promise")
    func observes() async throws {
        let queue = TaggedQueue("batched.observer")
        let seen = Recorder<String>()
        let (pending, resolver) = Promise<Int, TestError>.makePending()
        try await waitUntil { done in
            pending.whenComplete(on: queue.queue) { outcome in
                seen.record("\(outcome) \(queue.isCurrent)")
                done()
            }
            resolver.reject(TestError(1))
        }
        try await waitUntil { done in
            Promise<Int, TestError>(value: 2).whenComplete(on: queue.queue) { outcome in
                seen.record("\(outcome) \(queue.isCurrent)")
                done()
            }
        }
        #expect(seen.all == ["rejected(TestError(1)) true", "fulfilled(2) true"])
    }

    @Test("100,000 observers of one promise each run once, in order, on one queue")
    func manyObservers() async throws {
        let count = stressSize(100_000)
        let (promise, resolver) = Promise<Int, Never>.makePending()
        let counter = Recorder<Int>()
        let queue = DispatchQueue(label: "batched.observers")
        for index in 0..<count {
            promise.whenComplete(on: queue) { _ in if index % 1_000 == 0 { counter.record(index) } }
        }
        try await waitUntil(timeout: longTimeout(.seconds(60))) { done in
            promise.whenComplete(on: queue) { _ in done() }
            resolver.fulfill(1)
        }
        #expect(counter.all == Array(stride(from: 0, to: count, by: 1_000)))
    }
}
