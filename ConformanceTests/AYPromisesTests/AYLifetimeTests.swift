import AYPromises
import Dispatch
import TestSupport
import Testing

/// No promise outlives its use: the original never empties a settled promise's handler array, so
/// a settled promise keeps every promise chained or adopted from it alive. And chains of any
/// length settle and are freed without deep recursion.
@Suite("AY lifetime and deep chains")
struct AYLifetimeTests {
    @Test("a settled promise keeps nothing downstream alive")
    func settledKeepsNothingAlive() async throws {
        let source = pending()
        var next: AYPromise? = source.promise.thenAsync { value in value }
        let weakNext = Weak(next)
        source.resolve(1)
        #expect(try await value(of: next!) as? Int == 1)
        next = nil
        // Freeing has no signal to wait for: poll, bounded by the helper's timeout.
        try await eventually("the chained promise to be freed") { weakNext.object == nil }
        withExtendedLifetime(source) {}
    }

    @Test("a pending chained promise stays alive until it settles, then is freed")
    func aliveUntilSettled() async throws {
        let source = pending()
        var chained: AYPromise? = source.promise.thenAsync { value in (value as! Int) + 1 }
        let weakChained = Weak(chained)
        let result = chained!.thenAsync { value in value }
        chained = nil
        #expect(weakChained.object != nil, "freed while still pending")
        source.resolve(1)
        #expect(try await value(of: result) as? Int == 2)
        try await eventually("the chained promise to be freed") { weakChained.object == nil }
    }

    @Test("an adopting promise is freed once it settles, though the adopted promise lives on")
    func adopterFreed() async throws {
        let adopted = pending()
        var adopter: AYPromise? = AYPromise.resolve(nil).thenAsync { _ in adopted.promise }
        let weakAdopter = Weak(adopter)
        adopted.resolve(1)
        #expect(try await value(of: adopter!) as? Int == 1)
        adopter = nil
        try await eventually("the adopting promise to be freed") { weakAdopter.object == nil }
        withExtendedLifetime(adopted) {}
    }

    @Test("a settled race or all is freed even while some inputs stay pending")
    func combinatorsFreed() async throws {
        let neverSettles = pending()
        var race: AYPromise? = AYPromise.race([neverSettles.promise, 1])
        var all: AYPromise? = AYPromise.all([neverSettles.promise, TestError()])
        let weakRace = Weak(race)
        let weakAll = Weak(all)
        #expect(try await value(of: race!) as? Int == 1)
        _ = try await error(of: all!)
        race = nil
        all = nil
        try await eventually("race and all to be freed") { weakRace.object == nil && weakAll.object == nil }
        withExtendedLifetime(neverSettles) {}
    }

    @Test("a 100,000-link chain of then blocks on the main queue settles without overflowing the stack")
    func deepChainOnMain() async throws {
        let links = stressSize(100_000)
        let source = pending()
        let tail = try await offPool("building the chain") {
            var tail = source.promise
            for _ in 0..<links {
                tail = tail.then { value in (value as! Int) + 1 }
            }
            return tail
        }
        source.resolve(0)
        #expect(try await value(of: tail, timeout: longTimeout(.seconds(60))) as? Int == links)
    }

    @Test("a rejection passes through 100,000 thenAsync links without overflowing the stack")
    func deepRejectedChain() async throws {
        let source = pending()
        let tail = try await offPool("building the chain") {
            var tail = source.promise
            for _ in 0..<stressSize(100_000) {
                tail = tail.thenAsync { value in value }
            }
            return tail
        }
        source.reject(TestError(1))
        #expect(try await error(of: tail, timeout: longTimeout(.seconds(60))) as? TestError == TestError(1))
    }

    @Test("10,000 nested adoptions settle without overflowing the stack")
    func deepAdoption() async throws {
        @Sendable func countdown(_ remaining: Int) -> AYPromise {
            guard remaining > 0 else { return AYPromise.resolve("done") }
            return AYPromise.resolve(nil).thenAsync { _ in countdown(remaining - 1) }
        }
        #expect(
            try await value(of: countdown(10_000), timeout: longTimeout(.seconds(60))) as? String == "done")
    }

    @Test("dropping a pending 100,000-link chain frees it without overflowing the stack")
    func droppedDeepPendingChain() async throws {
        var head: AYPromise? = pending().promise
        let weakTail = try await offPool("building the chain") { [head] in
            var tail = head!
            for _ in 0..<stressSize(100_000) {
                tail = tail.thenAsync { value in value }
            }
            return Weak(tail)
        }
        head = nil
        try await eventually("the chain to be freed", timeout: longTimeout(.seconds(60))) {
            weakTail.object == nil
        }
    }
}
