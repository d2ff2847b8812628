import BatchedPromises
import Dispatch
import TestSupport
import Testing

@Suite("Batched: all")
struct AllTests {
    @Test("all gives every value in the inputs' order, however they settle")
    func valuesInOrder() async throws {
        let pendings = (0..<100).map { _ in Promise<Int, TestError>.makePending() }
        let all = Promise.all(pendings.map(\.promise))
        for index in (0..<100).reversed() { pendings[index].resolver.fulfill(index) }
        #expect(try await value(of: all) == Array(0..<100))
        #expect(try await value(of: Promise<Int, TestError>.all([])) == [])
    }

    @Test("all is rejected by the first failure, and the inputs still pending are cancelled")
    func firstFailure() async throws {
        let (failing, failingResolver) = Promise<Int, TestError>.makePending()
        let (slow, _) = Promise<Int, TestError>.makePending()
        let all = Promise.all([failing, slow])
        failingResolver.reject(TestError(3))
        #expect(try await outcome(of: all).failure == TestError(3))
        #expect(slow.currentOutcome?.isCancelled == true)
    }

    @Test("inputs fulfilled from many threads at once: every value in order")
    func concurrentInputs() async throws {
        let count = stressSize(10_000)
        let pendings = (0..<count).map { _ in Promise<Int, Never>.makePending() }
        let all = Promise.all(pendings.map(\.promise))
        DispatchQueue.concurrentPerform(iterations: count) { pendings[$0].resolver.fulfill($0) }
        #expect(try await value(of: all, timeout: longTimeout(.seconds(60))) == Array(0..<count))
    }

    @Test("cancelling all cancels the inputs no one else waits for")
    func cancelAll() async throws {
        let (alone, _) = Promise<Int, Never>.makePending()
        let (shared, sharedResolver) = Promise<Int, Never>.makePending()
        let other = shared.map(on: .global()) { $0 }
        let all = Promise.all([alone, shared])
        all.cancel()
        #expect(alone.currentOutcome?.isCancelled == true)
        #expect(shared.isPending)
        sharedResolver.fulfill(1)
        #expect(try await value(of: other) == 1)
    }
}

extension AllTests {
    @Test("all over promises no one can settle, one of them fulfilled, is freed with them once nothing holds it")
    func abandonedFreed() async throws {
        try await expectAllFreed("the inputs and the aggregate") {
            let inputs = (0..<3).map { index in index == 0 ? Promise<Int, TestError>(value: 1) : Promise { _ in } }
            return inputs.map(\.storage) + [Promise.all(inputs).storage]
        }
    }
}
