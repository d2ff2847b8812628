import Dispatch
import FBLPromises
import TestSupport
import Testing

@Suite("FBL all")
struct FBLAllTests {
    @Test("Values come in input order even when the inputs are fulfilled in reverse order")
    func valuesInInputOrderWhenFulfilledInReverse() async throws {
        let inputs = (0..<5).map { _ in FBLPromise<Int>.pending() }
        let combined = all(on: .global(), inputs)
        for (index, input) in inputs.enumerated().reversed() {
            input.fulfill(index * 10)
        }
        #expect(try await value(of: combined) == [0, 10, 20, 30, 40])
    }

    @Test("Values come in input order when the inputs are fulfilled from many threads at random times")
    func valuesInInputOrderWhenFulfilledConcurrently() async throws {
        let count = 50
        let inputs = (0..<count).map { _ in FBLPromise<Int>.pending() }
        let combined = all(on: .global(), inputs)
        for index in (0..<count).shuffled() {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int.random(in: 0...30))) {
                inputs[index].fulfill(index)
            }
        }
        #expect(try await value(of: combined) == Array(0..<count))
    }

    @Test("Already fulfilled and later fulfilled inputs mix")
    func mixesSettledAndPendingInputs() async throws {
        let later = FBLPromise<String>.pending()
        let combined = all(on: .global(), [FBLPromise("a"), later, FBLPromise("c")])
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { later.fulfill("b") }
        #expect(try await value(of: combined) == ["a", "b", "c"])
    }

    @Test("Rejects as soon as one input rejects, while the others are still pending")
    func rejectsAsSoonAsOneInputRejects() async throws {
        let inputs = (0..<3).map { _ in FBLPromise<Int>.pending() }
        let combined = all(on: .global(), inputs)
        inputs[1].reject(TestError(1))
        let failure = try await error(of: combined)
        #expect(failure as? TestError == TestError(1))
        #expect(inputs[0].isPending)
        #expect(inputs[2].isPending)
    }

    @Test("Rejects with the first error; later rejections and fulfilments are ignored")
    func rejectsWithTheFirstError() async throws {
        let tagged = TaggedQueue("fbl.all.first-error")
        let inputs = (0..<3).map { _ in FBLPromise<Int>.pending() }
        let combined = all(on: tagged.queue, inputs)
        // On a serial queue the inputs' callbacks run in the order the inputs settle.
        inputs[2].reject(TestError(2))
        inputs[0].reject(TestError(0))
        inputs[1].fulfill(1)
        let failure = try await error(of: combined)
        #expect(failure as? TestError == TestError(2))
        tagged.queue.sync {}  // every callback above has run
        #expect(combined.error as? TestError == TestError(2))
    }

    @Test("An empty input fulfils with an empty array")
    func emptyInputFulfilsWithEmptyArray() async throws {
        let combined = all(on: .global(), [FBLPromise<Int>]())
        #expect(try await value(of: combined) == [])
    }

    @Test("The variadic form gathers its arguments in order")
    func variadicForm() async throws {
        let second = FBLPromise<Int>.pending()
        let combined: FBLPromise<[Int]> = all(on: .global(), FBLPromise(1), second, FBLPromise(3))
        second.fulfill(2)
        #expect(try await value(of: combined) == [1, 2, 3])

        let five = all(on: .global(), FBLPromise(1), FBLPromise(2), FBLPromise(3), FBLPromise(4), FBLPromise(5))
        #expect(try await value(of: five) == [1, 2, 3, 4, 5])
    }

    @Test("The variadic form rejects with an input's error")
    func variadicFormRejects() async throws {
        let combined: FBLPromise<[Int]> = all(on: .global(), FBLPromise(1), FBLPromise<Int>(TestError(4)))
        let failure = try await error(of: combined)
        #expect(failure as? TestError == TestError(4))
    }

    @Test("Works with the default queue")
    func defaultQueue() async throws {
        let combined = all([FBLPromise(1), FBLPromise(2)])
        #expect(try await value(of: combined) == [1, 2])
    }

    @Test("A pair of different types fulfils with a tuple")
    func pairOfDifferentTypes() async throws {
        let text = FBLPromise<String>.pending()
        let combined = all(on: .global(), FBLPromise(1), text)
        text.fulfill("one")
        let (number, string) = try await value(of: combined)
        #expect(number == 1)
        #expect(string == "one")
    }

    @Test("A triple of different types fulfils with a tuple")
    func tripleOfDifferentTypes() async throws {
        let flag = FBLPromise<Bool>.pending()
        let combined = all(on: .global(), FBLPromise(2), FBLPromise("two"), flag)
        flag.fulfill(true)
        let (number, string, bool) = try await value(of: combined)
        #expect(number == 2)
        #expect(string == "two")
        #expect(bool)
    }

    @Test("A quadruple of different types fulfils with a tuple")
    func quadrupleOfDifferentTypes() async throws {
        let first = FBLPromise<Int>.pending()
        let combined = all(on: .global(), first, FBLPromise("three"), FBLPromise(3.5), FBLPromise([3]))
        first.fulfill(3)
        let (number, string, double, array) = try await value(of: combined)
        #expect(number == 3)
        #expect(string == "three")
        #expect(double == 3.5)
        #expect(array == [3])
    }

    @Test("A tuple form rejects with the error of the input that rejects")
    func tupleFormsReject() async throws {
        let pair = all(on: .global(), FBLPromise(1), FBLPromise<String>(TestError(2)))
        #expect(try await error(of: pair) as? TestError == TestError(2))

        let pendingString = FBLPromise<String>.pending()
        let triple = all(on: .global(), FBLPromise(1), pendingString, FBLPromise<Bool>(TestError(3)))
        #expect(try await error(of: triple) as? TestError == TestError(3))
        #expect(pendingString.isPending)

        let quadruple = all(
            on: .global(),
            FBLPromise(1),
            FBLPromise("x"),
            FBLPromise(1.5),
            FBLPromise<[Int]>(TestError(4))
        )
        #expect(try await error(of: quadruple) as? TestError == TestError(4))
    }

    @Test("Ten thousand inputs complete")
    func tenThousandInputs() async throws {
        let count = 10_000
        let inputs = (0..<count).map { _ in FBLPromise<Int>.pending() }
        let combined = all(on: .global(), inputs)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            inputs[index].fulfill(index)
        }
        #expect(try await value(of: combined) == Array(0..<count))
    }

    @Test("Inputs are observed on the given queue")
    func observesOnTheGivenQueue() async throws {
        let tagged = TaggedQueue("fbl.all.queue")
        let inputs = (0..<2).map { _ in FBLPromise<Int>.pending() }
        let combined = all(on: tagged.queue, inputs)
        tagged.queue.suspend()
        inputs[0].fulfill(1)
        inputs[1].fulfill(2)
        // The inputs' callbacks wait on the suspended queue, so nothing can settle the result.
        #expect(combined.isPending)
        await #expect(throws: TimedOut.self) {
            try await outcome(of: combined, timeout: .milliseconds(50))
        }
        tagged.queue.resume()
        // The callbacks were queued before this block, so they have run by the time it runs.
        let settled = tagged.queue.sync { combined.fulfilledValue }
        #expect(settled == [1, 2])
    }

    @Test("all(a, b) of one type needs no on: and is a tuple; an array when the result type says so")
    func twoOfOneType() async throws {
        let first = FBLPromise(1)
        let second = FBLPromise(2)
        let pair = try await value(of: all(first, second))
        #expect(pair.0 == 1 && pair.1 == 2)
        let array: FBLPromise<[Int]> = all(first, second)
        #expect(try await value(of: array) == [1, 2])
        #expect(try await value(of: all(first, second, first, second, first)) == [1, 2, 1, 2, 1])
    }
}
