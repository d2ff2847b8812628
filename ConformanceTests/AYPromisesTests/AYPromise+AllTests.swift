import AYPromises
import Dispatch
import Foundation
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

    @Test("after the first rejection all lets go of the values gathered, though an input stays pending")
    func rejectionReleasesValues() async throws {
        let neverSettles = pending()
        // Any class instance will do as a value that can be seen being freed.
        var gathered: Recorder<Int>? = Recorder()
        let weakGathered = Weak(gathered)
        var combined: AYPromise? = AYPromise.all([gathered, neverSettles.promise, TestError(1)])
        gathered = nil
        #expect((try await error(of: combined!) as? AYAllRejectedError)?.index == 2)
        combined = nil
        try await eventually("the gathered value to be freed") { weakGathered.object == nil }
        withExtendedLifetime(neverSettles) {}
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

    @Test("100,000 nested alls reject, innermost first, without overflowing the stack")
    func deeplyNested() async throws {
        // Each level is an input of the next: settling one level must not settle the next inside it.
        let depth = stressSize(100_000)
        let innermost = pending()
        let combined = try await offPool("nesting the alls") {
            var combined = innermost.promise
            for level in 1...depth {
                combined = AYPromise.all([combined, level])
            }
            return combined
        }
        innermost.reject(TestError(1))
        let failure = try await error(of: combined, timeout: longTimeout(.seconds(60)))
        // The description walks the 100,000 wrappers in a loop too.
        let description = String(describing: try #require(failure))
        #expect(description.hasPrefix("all: the promise at index 0 was rejected: all: the promise at index 0"))
        #expect(description.hasSuffix(String(describing: TestError(1))))
        var current = failure
        var levels = 0
        var wrongIndexes = 0
        while let wrapper = current as? AYAllRejectedError {
            levels += 1
            if wrapper.index != 0 { wrongIndexes += 1 }
            current = wrapper.internalError
        }
        #expect(levels == depth)
        #expect(wrongIndexes == 0)
        #expect(current as? TestError == TestError(1))
    }

    @Test("the rejection's localizedDescription is the failed input's, as the original's NSError says")
    func localizedDescription() async throws {
        let failed = AYPromise.all([AYPromise.resolve(1), AYPromise.resolve(LocalizedTestError())])
        let failure = try #require(try await error(of: failed) as? AYAllRejectedError)
        #expect(failure.localizedDescription == "the input's own words")
        // Nested `all`s report the innermost input's description.
        let nested = AYAllRejectedError(index: 0, internalError: failure)
        #expect(nested.localizedDescription == "the input's own words")
    }
}
