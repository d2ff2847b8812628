import Dispatch
import FBLPromises
import TestSupport
import Testing

@Suite("FBL reduce")
struct FBLReduceTests {
    @Test("Folds the items in order")
    func foldsInOrder() async throws {
        let folded = FBLPromise("").reduce(on: .global(), ["a", "b", "c"]) { partial, next in
            FBLPromise(partial + next)
        }
        #expect(try await value(of: folded) == "abc")
    }

    @Test("Each step waits for the previous one, even when earlier steps are slower")
    func eachStepWaitsForThePreviousOne() async throws {
        let steps = Recorder<Int>()
        let folded = FBLPromise<[Int]>([]).reduce(on: .global(), [1, 2, 3]) { partial, next in
            steps.record(next)
            let step = FBLPromise<[Int]>.pending()
            // Earlier steps take longer: without sequencing, later items would finish first.
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10 * (4 - next))) {
                step.fulfill(partial + [next])
            }
            return step
        }
        #expect(try await value(of: folded) == [1, 2, 3])
        #expect(steps.all == [1, 2, 3])
    }

    @Test("A rejected step ends the fold and later steps do not run")
    func rejectedStepStopsTheFold() async throws {
        let steps = Recorder<Int>()
        let folded = FBLPromise(0).reduce(on: .global(), [1, 2, 3, 4]) { partial, next in
            steps.record(next)
            return next == 2 ? FBLPromise<Int>(TestError(2)) : FBLPromise(partial + next)
        }
        let failure = try await error(of: folded)
        #expect(failure as? TestError == TestError(2))
        // The rejection passed through steps 3 and 4 before reaching the result.
        #expect(steps.all == [1, 2])
    }

    @Test("A step that throws ends the fold and later steps do not run")
    func throwingStepStopsTheFold() async throws {
        let steps = Recorder<Int>()
        let folded = FBLPromise(0).reduce(on: .global(), [1, 2, 3]) { partial, next in
            steps.record(next)
            if next == 1 { throw TestError(1) }
            return FBLPromise(partial + next)
        }
        let failure = try await error(of: folded)
        #expect(failure as? TestError == TestError(1))
        #expect(steps.all == [1])
    }

    @Test("Empty items yield the starting value without calling the reduction")
    func emptyItemsYieldTheStartingValue() async throws {
        let calls = Recorder<Int>()
        let folded = FBLPromise(5).reduce(on: .global(), [Int]()) { partial, next in
            calls.record(next)
            return FBLPromise(partial + next)
        }
        #expect(try await value(of: folded) == 5)
        #expect(calls.all.isEmpty)
    }

    @Test("A rejected starting promise never calls the reduction")
    func rejectedStartNeverCallsTheReduction() async throws {
        let calls = Recorder<Int>()
        let folded = FBLPromise<Int>(TestError(9)).reduce(on: .global(), [1, 2]) { partial, next in
            calls.record(next)
            return FBLPromise(partial + next)
        }
        let failure = try await error(of: folded)
        #expect(failure as? TestError == TestError(9))
        #expect(calls.all.isEmpty)
    }

    @Test("Waits for a pending starting promise")
    func waitsForPendingStart() async throws {
        let start = FBLPromise<Int>.pending()
        let folded = start.reduce(on: .global(), [2, 3]) { partial, next in FBLPromise(partial * next) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { start.fulfill(7) }
        #expect(try await value(of: folded) == 42)
    }

    @Test("The variadic form folds its arguments in order")
    func variadicForm() async throws {
        let folded = FBLPromise("").reduce(
            on: .global(), "x", "y", "z",
            combine: { partial, next in
                FBLPromise(partial + next)
            })
        #expect(try await value(of: folded) == "xyz")

        let sum = FBLPromise(0).reduce(1, 2, 3, combine: { partial, next in FBLPromise(partial + next) })
        #expect(try await value(of: sum) == 6)
    }

    @Test("The reduction runs on the given queue")
    func runsOnTheGivenQueue() async throws {
        let tagged = TaggedQueue("fbl.reduce.queue")
        let onQueue = Recorder<Bool>()
        let folded = FBLPromise(1).reduce(on: tagged.queue, [1, 1]) { partial, next in
            onQueue.record(tagged.isCurrent)
            return FBLPromise(partial + next)
        }
        #expect(try await value(of: folded) == 3)
        #expect(onQueue.all == [true, true])
    }
}
