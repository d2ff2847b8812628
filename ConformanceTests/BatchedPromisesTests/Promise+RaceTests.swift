import BatchedPromises
import Dispatch
import TestSupport
import Testing

@Suite("Batched: race")
struct RaceTests {
    @Test("race settles as the first input to settle; the others, the race their only dependent, are cancelled")
    func firstWins() async throws {
        let pendings = (0..<3).map { _ in Promise<Int, TestError>.makePending() }
        let kept = pendings[2].promise.map(on: .global()) { $0 }
        let race = Promise.race(pendings.map(\.promise))
        pendings[1].resolver.reject(TestError(1))
        pendings[0].resolver.fulfill(0)
        #expect(try await outcome(of: race).failure == TestError(1))
        #expect(pendings[0].promise.currentOutcome?.isCancelled == true)
        #expect(pendings[2].promise.isPending)
        pendings[2].resolver.fulfill(2)
        #expect(try await value(of: kept) == 2)
    }

    @Test("inputs settled from many threads: one outcome, one input's")
    func concurrent() async throws {
        for _ in 0..<stressSize(100) {
            let pendings = (0..<16).map { _ in Promise<Int, Never>.makePending() }
            let race = Promise.race(pendings.map(\.promise))
            DispatchQueue.concurrentPerform(iterations: 16) { pendings[$0].resolver.fulfill($0) }
            let winner = try await value(of: race)
            #expect(pendings[winner].promise.currentOutcome == .fulfilled(winner))
        }
        #expect(try await outcome(of: Promise<Int, Never>.race([])).isCancelled)
    }
}

extension RaceTests {
    @Test("a race of promises no one can settle is freed with them once nothing holds it")
    func abandonedFreed() async throws {
        try await expectAllFreed("the inputs and the race") {
            let inputs = (0..<3).map { _ in Promise<Int, TestError> { _ in } }
            return inputs.map(\.storage) + [Promise.race(inputs).storage]
        }
    }
}
