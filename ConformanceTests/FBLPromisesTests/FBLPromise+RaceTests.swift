import Dispatch
import FBLPromises
import TestSupport
import Testing

@Suite("FBL race")
struct FBLRaceTests {
    @Test("The first input to be fulfilled wins")
    func firstToFulfilWins() async throws {
        let inputs = (0..<3).map { _ in FBLPromise<Int>.pending() }
        let winner = race(on: .global(), inputs)
        inputs[1].fulfill(1)
        #expect(try await value(of: winner) == 1)
        #expect(inputs[0].isPending)
        #expect(inputs[2].isPending)
    }

    @Test("The first input to be rejected wins")
    func firstToRejectWins() async throws {
        let inputs = (0..<3).map { _ in FBLPromise<Int>.pending() }
        let winner = race(on: .global(), inputs)
        inputs[2].reject(TestError(2))
        let failure = try await error(of: winner)
        #expect(failure as? TestError == TestError(2))
    }

    @Test("An input settled later than another does not change the outcome")
    func laterSettlementsAreIgnored() async throws {
        let tagged = TaggedQueue("fbl.race.later")
        let inputs = (0..<3).map { _ in FBLPromise<Int>.pending() }
        let winner = race(on: tagged.queue, inputs)
        // On a serial queue the inputs' callbacks run in the order the inputs settle.
        inputs[2].fulfill(2)
        inputs[0].reject(TestError(0))
        inputs[1].fulfill(1)
        #expect(try await value(of: winner) == 2)
        tagged.queue.sync {}  // every callback above has run
        #expect(winner.fulfilledValue == 2)
    }

    @Test("A settlement after the race is decided is ignored")
    func settlementAfterTheWinnerIsIgnored() async throws {
        let tagged = TaggedQueue("fbl.race.after")
        let slow = FBLPromise<String>.pending()
        let winner = race(on: tagged.queue, [slow, FBLPromise<String>(TestError(9))])
        #expect(try await error(of: winner) as? TestError == TestError(9))
        slow.fulfill("too late")
        tagged.queue.sync {}  // the slow input's callback has run
        #expect(winner.error as? TestError == TestError(9))
        #expect(winner.fulfilledValue == nil)
    }

    @Test("An already settled input wins over pending ones")
    func alreadySettledInputWins() async throws {
        let pending = FBLPromise<Int>.pending()
        let winner = race(on: .global(), [pending, FBLPromise(7)])
        #expect(try await value(of: winner) == 7)
    }

    @Test("An empty input rejects with invalidArgument")
    func emptyInputRejects() async throws {
        let winner = race(on: .global(), [FBLPromise<Int>]())
        let failure = try await error(of: winner)
        #expect(Self.isInvalidArgument(failure))
    }

    @Test("The variadic form races its arguments")
    func variadicForm() async throws {
        let first = FBLPromise<Int>.pending()
        let second = FBLPromise<Int>.pending()
        let winner = race(on: .global(), first, second, FBLPromise<Int>.pending())
        second.fulfill(2)
        #expect(try await value(of: winner) == 2)

        let rejected = race(on: .global(), FBLPromise<Int>.pending(), FBLPromise<Int>(TestError(3)))
        #expect(try await error(of: rejected) as? TestError == TestError(3))
    }

    @Test("Works with the default queue")
    func defaultQueue() async throws {
        let winner = race(FBLPromise<Int>.pending(), FBLPromise(4))
        #expect(try await value(of: winner) == 4)
    }

    @Test("Inputs are observed on the given queue")
    func observesOnTheGivenQueue() async throws {
        let tagged = TaggedQueue("fbl.race.queue")
        let input = FBLPromise<Int>.pending()
        let winner = race(on: tagged.queue, [input])
        tagged.queue.suspend()
        input.fulfill(1)
        // The input's callback waits on the suspended queue, so nothing can settle the result.
        #expect(winner.isPending)
        await #expect(throws: TimedOut.self) {
            try await outcome(of: winner, timeout: .milliseconds(50))
        }
        tagged.queue.resume()
        // The callback was queued before this block, so it has run by the time it runs.
        let settled = tagged.queue.sync { winner.fulfilledValue }
        #expect(settled == 1)
    }

    private static func isInvalidArgument(_ error: (any Error)?) -> Bool {
        if case .invalidArgument? = error as? PromiseError { return true }
        return false
    }
}
