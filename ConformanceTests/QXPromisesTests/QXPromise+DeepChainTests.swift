import Dispatch
import QXPromises
import TestSupport
import Testing

/// Stack safety: each link hands its block to a queue, so chains of any length run without
/// recursion, and a dropped pending chain is freed one link per hop.
@Suite("QX deep chains", .serialized)
struct QXDeepChainTests {
    static let links = stressSize(100_000)

    @Test("a 100,000-link chain settles without overflowing the stack")
    func deepChainSettles() async throws {
        let (head, resolver) = QXPromise.pending(on: .global())
        let queue = DispatchQueue(label: "qx.deep")
        var tail = head
        for _ in 0..<Self.links {
            tail = tail.then(on: queue) { ($0 as! Int) + 1 }
        }
        resolver.fulfill(0)
        #expect(try await value(of: tail, timeout: longTimeout(.seconds(120))) as? Int == Self.links)
    }

    @Test("a 100,000-link rejected chain passes the rejection down to a catch")
    func deepRejectionPassesThrough() async throws {
        let (head, resolver) = QXPromise.pending(on: .global())
        let queue = DispatchQueue(label: "qx.deep.reject")
        var tail = head
        for _ in 0..<Self.links {
            tail = tail.then(on: queue) { $0 }
        }
        let caught = tail.catch(on: queue) { error in (error as? TestError)?.code }
        resolver.reject(TestError(42))
        #expect(try await value(of: caught, timeout: longTimeout(.seconds(120))) as? Int == 42)
    }

    @Test("100,000 promises each adopting the next settle without overflowing the stack")
    func deepAdoption() async throws {
        let (last, lastResolver) = QXPromise.pending(on: .global())
        var outer = last
        for _ in 0..<Self.links {
            let (promise, resolver) = QXPromise.pending(on: .global())
            resolver.fulfill(outer)
            outer = promise
        }
        lastResolver.fulfill(5)
        #expect(try await value(of: outer, timeout: longTimeout(.seconds(120))) as? Int == 5)
    }

    @Test("a settled 100,000-link chain is freed")
    func deepChainFreed() async throws {
        let (head, resolver) = QXPromise.pending(on: .global())
        let queue = DispatchQueue(label: "qx.deep.freed")
        var tail = head
        let weakMiddle = Recorder<Weak<QXPromise>>()
        for index in 0..<Self.links {
            tail = tail.then(on: queue) { $0 }
            if index == Self.links / 2 { weakMiddle.record(Weak(tail)) }
        }
        resolver.fulfill(1)
        #expect(try await value(of: tail, timeout: longTimeout(.seconds(120))) as? Int == 1)
        try await eventually("the middle link to be freed", timeout: longTimeout(.seconds(60))) {
            weakMiddle.all[0].object == nil
        }
    }

    @Test("dropping a pending 100,000-link chain frees it without overflowing the stack")
    func droppedDeepPendingChain() async throws {
        var resolver: QXResolver? = nil
        var tail: QXPromise
        do {
            let (head, headResolver) = QXPromise.pending(on: .global())
            resolver = headResolver
            tail = head
        }
        let queue = DispatchQueue(label: "qx.deep.dropped")
        for _ in 0..<Self.links {
            tail = tail.then(on: queue) { $0 }
        }
        let weakTail = Weak(tail)
        tail = QXPromise(fulfilledWith: 0)
        #expect(weakTail.object != nil, "freed while its chain could still settle")
        resolver = nil
        try await eventually("the chain to be freed", timeout: longTimeout(.seconds(60))) {
            weakTail.object == nil
        }
        withExtendedLifetime(resolver) {}
    }
}
