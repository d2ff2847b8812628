import BatchedPromises
import Dispatch
import TestSupport
import Testing

@Suite("Batched: map and then")
struct MapTests {
    @Test("map transforms the value on the given queue")
    func mapsOnQueue() async throws {
        let queue = TaggedQueue("batched.map")
        let onQueue = Recorder<Bool>()
        let promise = Promise<Int, TestError>(value: 20).map(on: queue.queue) { value in
            onQueue.record(queue.isCurrent)
            return String(value + 1)
        }
        #expect(try await value(of: promise) == "21")
        #expect(onQueue.all == [true])
    }

    @Test("a throw rejects with the typed failure; a rejection passes on without running the transform")
    func failures() async throws {
        let thrown = Promise<Int, TestError>(value: 1).map(on: .global()) { _ throws(TestError) -> Int in
            throw TestError(5)
        }
        #expect(try await outcome(of: thrown).failure == TestError(5))
        let ran = Recorder<Int>()
        let passed = Promise<Int, TestError>(failure: TestError(6)).map(on: .global()) { value in
            ran.record(value)
            return value
        }
        #expect(try await outcome(of: passed).failure == TestError(6))
        #expect(ran.all.isEmpty)
    }

    @Test("then is map, and its result may be dropped")
    func thenIsMap() async throws {
        let seen = Recorder<Int>()
        try await waitUntil { done in
            Promise<Int, Never>(value: 3).then(on: .global()) { value in
                seen.record(value)
                done()
            }
        }
        #expect(seen.all == [3])
    }

    @Test("the transform is released once it has run")
    func transformReleased() async throws {
        final class Captured: Sendable {}
        var captured: Captured? = Captured()
        let weak = Weak(captured)
        let promise = Promise<Int, Never>(value: 1).map(on: .global()) { [captured] value in
            withExtendedLifetime(captured) {}
            return value
        }
        captured = nil
        _ = try await value(of: promise)
        try await eventually("the transform to be freed") { weak.object == nil }
        withExtendedLifetime(promise) {}
    }
}
