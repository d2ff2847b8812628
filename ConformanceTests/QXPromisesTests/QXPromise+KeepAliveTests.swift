import Dispatch
import QXPromises
import TestSupport
import Testing

/// keepAlive / loseControl: a pending promise keeps itself alive and lets go when it settles, or
/// when nothing can settle it any more.
@Suite("QX keepAlive")
struct QXKeepAliveTests {
    @Test("a chain runs to its end though nobody holds its promises (the article held them weakly)")
    func chainSurvivesUnheld() async throws {
        let results = Recorder<Int>()
        let weakLinks = Recorder<Weak<QXPromise>>()
        try await waitUntil("the end of the chain") { done in
            let head = QXPromise(on: .global()) { fulfill, _ in
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { fulfill(1) }
            }
            let first = head.then(on: .global()) { ($0 as! Int) + 1 }
            let second = first.then(on: .global()) { value -> PromiseValue in
                results.record(value as! Int)
                done()
                return nil
            }
            for promise in [head, first, second] { weakLinks.record(Weak(promise)) }
        }
        #expect(results.all == [2])
        try await eventually("every link to be freed after settling") {
            weakLinks.all.allSatisfy { $0.object == nil }
        }
    }

    @Test("a pending promise stays alive while its resolver can settle it, then lets go")
    func keepAliveUntilSettled() async throws {
        var promise: QXPromise?
        var resolver: QXResolver?
        (promise, resolver) = QXPromise.pending(on: .global())
        let weakPromise = Weak(promise)
        promise = nil
        #expect(weakPromise.object != nil, "freed while pending and settleable")
        resolver?.fulfill(1)
        try await eventually("the settled promise to be freed") { weakPromise.object == nil }
        withExtendedLifetime(resolver) {}
    }

    @Test("a pending link stays alive while the promise it observes is pending")
    func linkKeptWhileSourcePending() async throws {
        let (source, resolver) = QXPromise.pending(on: .global())
        var link: QXPromise? = source.then(on: .global()) { $0 }
        let weakLink = Weak(link)
        link = nil
        #expect(weakLink.object != nil)
        resolver.fulfill(2)
        try await eventually("the link to be freed once settled") { weakLink.object == nil }
    }

    @Test("a settled promise lets go of its observation, its blocks and itself")
    func nothingHeldAfterSettlement() async throws {
        let (source, resolver) = QXPromise.pending(on: .global())
        let (weakLink, weakCaptured) = Self.linkCapturingAnObject(after: source)
        #expect(weakLink.object != nil && weakCaptured.object != nil)
        resolver.fulfill(3)
        try await eventually("the link and what its block captured to be freed") {
            weakLink.object == nil && weakCaptured.object == nil
        }
        #expect(source.observerCount == 0)
    }

    @Test("a dropped pending chain with a retry link is freed (the retry link's catch block holds the step)")
    func droppedChainWithRetryIsFreed() async throws {
        let links = Self.pendingChainWithRetry()
        try await eventually("every link after the dropped head to be freed") {
            links.allSatisfy { $0.object == nil }
        }
    }

    /// `p.then { fetch }.retry(3).then { show }` on a pending `p` whose resolver is dropped at the
    /// end of the call; returns the links, held weakly.
    private static func pendingChainWithRetry() -> [Weak<QXPromise>] {
        let (head, _) = QXPromise.pending(on: .global())
        let step = head.then(on: .global()) { _ in QXPromise(rejectedWith: TestError()) }
        let retried = step.retry(3, on: .global())
        let shown = retried.then(on: .global()) { $0 }
        return [head, step, retried, shown].map { Weak($0) }
    }

    /// Makes a link whose block captures an object, holding neither (a local would keep them
    /// alive to the end of the test in a debug build).
    private static func linkCapturingAnObject(after source: QXPromise) -> (Weak<QXPromise>, Weak<CapturedObject>) {
        let captured = CapturedObject()
        let link = source.then(on: .global()) { value in
            withExtendedLifetime(captured) {}
            return value
        }
        return (Weak(link), Weak(captured))
    }
}

/// Something a block captures, to check that it is released.
final class CapturedObject: Sendable {}
