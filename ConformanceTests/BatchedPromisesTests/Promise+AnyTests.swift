import BatchedPromises
import Dispatch
import TestSupport
import Testing

@Suite("Batched: any")
struct AnyTests {
    @Test("any gives the first value, whatever failed before it")
    func firstValue() async throws {
        let pendings = (0..<3).map { _ in Promise<Int, TestError>.makePending() }
        let any = Promise.any(pendings.map(\.promise))
        pendings[0].resolver.reject(TestError(0))
        pendings[2].resolver.fulfill(2)
        #expect(try await value(of: any) == 2)
        #expect(pendings[1].promise.currentOutcome?.isCancelled == true)
    }

    @Test("any is rejected with every failure, in the inputs' order, once all failed")
    func allFailed() async throws {
        let pendings = (0..<3).map { _ in Promise<Int, TestError>.makePending() }
        let any = Promise.any(pendings.map(\.promise))
        for index in [2, 0, 1] { pendings[index].resolver.reject(TestError(index)) }
        #expect(try await outcome(of: any).failure?.failures == [TestError(0), TestError(1), TestError(2)])
        #expect(try await outcome(of: Promise<Int, TestError>.any([])).failure?.failures == [])
    }
}

extension AnyTests {
    @Test("any over promises no one can settle is freed with them once nothing holds it")
    func abandonedFreed() async throws {
        try await expectAllFreed("the inputs and the aggregate") {
            let inputs = (0..<3).map { _ in Promise<Int, TestError> { _ in } }
            return inputs.map(\.storage) + [Promise.any(inputs).storage]
        }
    }
}
