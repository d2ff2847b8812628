import AYPromises
import Dispatch
import Foundation
import TestSupport
import Testing

@Suite("AY race")
struct AYRaceTests {
    @Test("race fulfils with the first fulfilled value, even after another input rejected")
    func firstFulfilled() async throws {
        let inputs = (0..<3).map { _ in pending() }
        let race = AYPromise.race(inputs.map(\.promise))
        inputs[0].reject(TestError(1))
        await afterMainQueueDrains()
        #expect(race.state.isPending)
        inputs[2].resolve("winner")
        inputs[1].resolve("late")
        #expect(try await value(of: race) as? String == "winner")
    }

    @Test("race rejects only when every input rejected, with every error in input order")
    func allRejected() async throws {
        let inputs = (0..<3).map { _ in pending() }
        let race = AYPromise.race(inputs.map(\.promise))
        inputs[2].reject(TestError(3))
        inputs[0].reject(TestError(1))
        await afterMainQueueDrains()
        #expect(race.state.isPending)
        inputs[1].reject(TestError(2))
        let failure = try #require(try await error(of: race) as? AYRaceRejectedError)
        #expect(failure.internalErrors.map { ($0 as? TestError)?.code } == [1, 2, 3])
    }

    @Test("race of nothing rejects with emptyRace at once (the original never settles)")
    func empty() {
        #expect(AYPromise.race([]).state.error as? AYPromiseError == .emptyRace)
    }

    @Test("plain values and error values are accepted as inputs")
    func mixedInputs() async throws {
        #expect(try await value(of: AYPromise.race([TestError(1), 2])) as? Int == 2)
        let failed = AYPromise.race([TestError(3), TestError(4)])
        let errors = (try await error(of: failed) as? AYRaceRejectedError)?.internalErrors
        #expect(errors?.map { ($0 as? TestError)?.code } == [3, 4])
    }

    @Test("100,000 nested races fulfil, innermost first, without overflowing the stack")
    func deeplyNested() async throws {
        // Each level is an input of the next: settling one level must not settle the next inside it.
        let depth = stressSize(100_000)
        let innermost = pending()
        let combined = try await offPool("nesting the races") {
            var combined = innermost.promise
            for level in 1...depth {
                combined = AYPromise.race([combined, TestError(level)])
            }
            return combined
        }
        innermost.resolve("innermost")
        #expect(try await value(of: combined, timeout: longTimeout(.seconds(60))) as? String == "innermost")
    }

    @Test("100,000 nested races reject when every input rejects, and their nested errors are freed")
    func deeplyNestedRejections() async throws {
        let depth = stressSize(100_000)
        let innermost = pending()
        var combined = try await offPool("nesting the races") {
            var combined = innermost.promise
            for level in 1...depth {
                combined = AYPromise.race([combined, TestError(level)])
            }
            return combined
        }
        innermost.reject(TestError(0))
        var current = try await error(of: combined, timeout: longTimeout(.seconds(60)))
        combined = AYPromise.resolve(nil)
        // Every level holds the previous level's error and its own input's; walk them in a loop.
        var levels = 0
        var wrongErrors = 0
        while let wrapper = current as? AYRaceRejectedError {
            levels += 1
            if (wrapper.internalErrors.last as? TestError)?.code != depth + 1 - levels { wrongErrors += 1 }
            current = wrapper.internalErrors.first
        }
        #expect(levels == depth)
        #expect(wrongErrors == 0)
        #expect(current as? TestError == TestError(0))
    }

    @Test("a race every input lost says so in the original's words (localizedDescription)")
    func localizedDescription() async throws {
        let lost = AYPromise.race([AYPromise.resolve(TestError(1)), AYPromise.resolve(TestError(2))])
        let failure = try #require(try await error(of: lost) as? AYRaceRejectedError)
        #expect(failure.localizedDescription == "all promise were rejected")
    }
}
