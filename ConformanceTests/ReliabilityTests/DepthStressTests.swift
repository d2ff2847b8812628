import APlusSuite
import DesignRegistry
import TestSupport
import Testing

/// Depth and size on the shared protocol, for every registered design: long chains, deep
/// adoption and wide fan-out settle without overflowing the stack. The chains are built on a
/// private queue, off the main queue and the cooperative pool that the whole suite shares.
@Suite("Reliability: depth and size, every design", .serialized)
struct DepthStressTests {
    static let depth = stressSize(100_000)
    static let width = stressSize(100_000)

    @Test("a 100,000-link then chain settles without overflowing the stack", arguments: Design.allCases)
    func longChain(design: Design) async throws {
        try await Self.longChain(design.adapter)
    }

    @Test("a rejection passes through 100,000 links without overflowing the stack", arguments: Design.allCases)
    func longRejectedChain(design: Design) async throws {
        try await Self.longRejectedChain(design.adapter)
    }

    @Test(
        "100,000-deep nested adoption (resolved with a promise resolved with ...) settles", arguments: Design.allCases)
    func deepAdoption(design: Design) async throws {
        try await Self.deepAdoption(design.adapter)
    }

    @Test("100,000 observers of one promise are each called once", arguments: Design.allCases)
    func fanOut(design: Design) async throws {
        try await Self.fanOut(design.adapter)
    }

    @Test("a pending 100,000-link chain dropped is freed without overflowing the stack", arguments: Design.allCases)
    func droppedPendingChain(design: Design) async throws {
        try await Self.droppedPendingChain(design.adapter)
    }

    /// Built and dropped on a queue's thread (512 KiB of stack): freed one link inside the next,
    /// 100,000 links would overflow it (Batched's debug build did, in its deinit).
    static func droppedPendingChain<A: APlusAdapter>(_: A.Type) async throws {
        let depth = depth
        let head = try await offPool("building and dropping the chain", timeout: heavyTimeout) {
            () -> Weak<AnyObject> in
            let head = A.deferred()
            let tail = A.chained(head.promise, depth)
            let weak = A.weakReference(to: head.promise)
            withExtendedLifetime(tail) {}
            return weak
        }
        try await eventually("the chain's root to be freed") { head.object == nil }
    }

    static func longChain<A: APlusAdapter>(_: A.Type) async throws {
        let depth = depth
        let tail = try await offPool("building the chain", timeout: heavyTimeout) {
            let head = A.deferred()
            let tail = A.chained(head.promise, depth) { ($0 as! Int) + 1 }
            head.resolve(0)
            return tail
        }
        #expect(try await A.settledOutcome(tail, timeout: heavyTimeout) == .fulfilled(depth))
    }

    static func longRejectedChain<A: APlusAdapter>(_: A.Type) async throws {
        let depth = depth
        let tail = try await offPool("building the chain", timeout: heavyTimeout) {
            let head = A.deferred()
            let tail = A.chained(head.promise, depth)
            head.reject(TestError(7))
            return tail
        }
        #expect(try await A.settledOutcome(tail, timeout: heavyTimeout) == .rejected(7))
    }

    static func deepAdoption<A: APlusAdapter>(_: A.Type) async throws {
        let depth = depth
        let outer = try await offPool("building the adoptions", timeout: heavyTimeout) {
            nestedAdoptions(A.self, depth: depth, innermostFirst: false, value: 5)
        }
        #expect(try await A.settledOutcome(outer, timeout: heavyTimeout) == .fulfilled(5))
    }

    static func fanOut<A: APlusAdapter>(_: A.Type) async throws {
        let width = width
        let calls = Countdown(width)
        let wrong = Recorder<Outcome>()
        try await offPool("attaching the observers", timeout: heavyTimeout) {
            let source = A.deferred()
            for _ in 0..<width {
                A.observe(source.promise) { outcome in
                    if outcome != .fulfilled(3) { wrong.record(outcome) }
                    calls.tick()
                }
            }
            source.resolve(3)
        }
        try await calls.wait("every observer", timeout: heavyTimeout)
        try await drainMainQueue()
        #expect(calls.remaining == 0, "an observer was called twice")
        #expect(wrong.all.isEmpty)
    }
}
