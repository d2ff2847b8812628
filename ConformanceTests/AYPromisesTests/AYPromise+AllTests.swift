import AYPromises
import Dispatch
import PromiseInterface
import TestSupport
import Testing

@Suite("AY all")
struct AYAllTests {
    @Test("all fulfils with every value in input order, whatever order they arrive in")
    func valuesInOrder() async throws {
        let inputs = (0..<3).map { _ in pending() }
        let combined = AYPromise.all(inputs.map(\.promise))
        inputs[2].resolve("c")
        inputs[0].resolve("a")
        await afterMainQueueDrains()
        #expect(combined.state.isPending)
        inputs[1].resolve(nil)
        let values = try #require(try await value(of: combined) as? [PromiseValue])
        #expect(values.map { $0 as? String } == ["a", nil, "c"])
    }

    @Test("all rejects on the first rejection with a wrapper carrying that error and its index")
    func firstRejection() async throws {
        let inputs = (0..<3).map { _ in pending() }
        let combined = AYPromise.all(inputs.map(\.promise))
        inputs[0].resolve(1)
        inputs[2].reject(TestError(2))
        let failure = try #require(try await error(of: combined) as? AYAllRejectedError)
        #expect(failure.index == 2)
        #expect(failure.internalError as? TestError == TestError(2))
        inputs[1].reject(TestError(3))
        await afterMainQueueDrains()
        #expect((combined.state.error as? AYAllRejectedError)?.index == 2)
    }

    @Test("all of nothing fulfils with an empty array at once (the original never settles)")
    func empty() async throws {
        let values = try #require(try await value(of: AYPromise.all([])) as? [PromiseValue])
        #expect(values.isEmpty)
    }

    @Test("plain values, error values and thenables are accepted as inputs")
    func mixedInputs() async throws {
        let thenable = ScriptThenable { resolve, _ in resolve(3) }
        let fulfilled = AYPromise.all([1, "two", thenable, AYPromise.asyncWith { 4 }])
        let values = try #require(try await value(of: fulfilled) as? [PromiseValue])
        #expect(values.count == 4)
        #expect(values[0] as? Int == 1 && values[1] as? String == "two")
        #expect(values[2] as? Int == 3 && values[3] as? Int == 4)
        let failed = AYPromise.all([1, TestError(5)])
        #expect((try await error(of: failed) as? AYAllRejectedError)?.internalError as? TestError == TestError(5))
    }
}
