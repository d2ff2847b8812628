import Dispatch
import FBLPromises
import Foundation
import TestSupport
import Testing

@Suite("FBL any")
struct FBLAnyTests {
    @Test("Every outcome comes as a Maybe, in input order, values and errors mixed")
    func everyOutcomeInInputOrder() async throws {
        let inputs = (0..<4).map { _ in FBLPromise<Int>.pending() }
        let combined = any(on: .global(), inputs)
        inputs[3].fulfill(3)
        inputs[2].reject(TestError(2))
        inputs[1].fulfill(1)
        inputs[0].reject(TestError(0))
        let outcomes = try await value(of: combined)
        try #require(outcomes.count == 4)
        #expect(outcomes[0].error as? TestError == TestError(0))
        #expect(outcomes[0].value == nil)
        #expect(outcomes[1].value == 1)
        #expect(outcomes[1].error == nil)
        #expect(outcomes[2].error as? TestError == TestError(2))
        #expect(outcomes[3].value == 3)
    }

    @Test("Waits for every input to settle, even after a rejection")
    func waitsForEveryInput() async throws {
        let last = FBLPromise<String>.pending()
        let combined = any(on: .global(), [FBLPromise<String>(TestError(1)), last])
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(30)) { last.fulfill("late") }
        let outcomes = try await value(of: combined)
        try #require(outcomes.count == 2)
        #expect(outcomes[0].error as? TestError == TestError(1))
        #expect(outcomes[1].value == "late")
    }

    @Test("Fulfils when every input is fulfilled")
    func allFulfilled() async throws {
        let combined = any(on: .global(), [FBLPromise(1), FBLPromise(2)])
        let outcomes = try await value(of: combined)
        #expect(outcomes.map(\.value) == [1, 2])
    }

    @Test("When every input is rejected, rejects with the error of the last one to be rejected")
    func allRejectedRejectsWithTheLastError() async throws {
        let tagged = TaggedQueue("fbl.any.last-error")
        let inputs = (0..<3).map { _ in FBLPromise<Int>.pending() }
        let combined = any(on: tagged.queue, inputs)
        // On a serial queue the inputs' callbacks run in the order the inputs settle.
        inputs[2].reject(TestError(2))
        inputs[0].reject(TestError(0))
        inputs[1].reject(TestError(1))
        let failure = try await error(of: combined)
        #expect(failure as? TestError == TestError(1))
    }

    @Test("An empty input fulfils with an empty array")
    func emptyInputFulfilsWithEmptyArray() async throws {
        let combined = any(on: .global(), [FBLPromise<Int>]())
        #expect(try await value(of: combined).isEmpty)
    }

    @Test("The variadic form gathers its arguments in order")
    func variadicForm() async throws {
        let combined: FBLPromise<[Maybe<Int>]> = any(
            on: .global(),
            FBLPromise(1),
            FBLPromise<Int>(TestError(2)),
            FBLPromise(3)
        )
        let outcomes = try await value(of: combined)
        try #require(outcomes.count == 3)
        #expect(outcomes[0].value == 1)
        #expect(outcomes[1].error as? TestError == TestError(2))
        #expect(outcomes[2].value == 3)
    }

    @Test("A pair of different types fulfils with a tuple of outcomes")
    func pairOfDifferentTypes() async throws {
        let text = FBLPromise<String>.pending()
        let combined = any(on: .global(), FBLPromise(1), text)
        text.reject(TestError(5))
        let (number, string) = try await value(of: combined)
        #expect(number.value == 1)
        #expect(string.value == nil)
        #expect(string.error as? TestError == TestError(5))
    }

    @Test("A triple of different types fulfils with a tuple of outcomes")
    func tripleOfDifferentTypes() async throws {
        let combined = any(on: .global(), FBLPromise<Int>(TestError(6)), FBLPromise("two"), FBLPromise(true))
        let (number, string, bool) = try await value(of: combined)
        #expect(number.error as? TestError == TestError(6))
        #expect(string.value == "two")
        #expect(bool.value == true)
    }

    @Test("A tuple form rejects with the last error when every input is rejected")
    func tupleFormsRejectWhenAllRejected() async throws {
        let tagged = TaggedQueue("fbl.any.tuple-errors")
        let first = FBLPromise<Int>.pending()
        let second = FBLPromise<String>.pending()
        let pair = any(on: tagged.queue, first, second)
        second.reject(TestError(2))
        first.reject(TestError(1))
        #expect(try await error(of: pair) as? TestError == TestError(1))

        let triple = any(
            on: .global(),
            FBLPromise<Int>(TestError(3)),
            FBLPromise<String>(TestError(3)),
            FBLPromise<Bool>(TestError(3))
        )
        #expect(try await error(of: triple) as? TestError == TestError(3))
    }

    @Test("Maybe's accessors return the wrapped value or error and nil for the other")
    func maybeAccessors() {
        let value = Maybe<Int>(5)
        #expect(value.value == 5)
        #expect(value.error == nil)

        let failure = Maybe<Int>(TestError(7))
        #expect(failure.value == nil)
        #expect(failure.error as? TestError == TestError(7))

        #expect(Maybe<String>.value("x").value == "x")
        #expect(Maybe<String>.error(TestError(8)).error as? TestError == TestError(8))
    }

    @Test("Inputs are observed on the given queue")
    func observesOnTheGivenQueue() async throws {
        let tagged = TaggedQueue("fbl.any.queue")
        let inputs = (0..<2).map { _ in FBLPromise<Int>.pending() }
        let combined = any(on: tagged.queue, inputs)
        tagged.queue.suspend()
        inputs[0].fulfill(1)
        inputs[1].reject(TestError(2))
        // The inputs' callbacks wait on the suspended queue, so nothing can settle the result.
        #expect(combined.isPending)
        await #expect(throws: TimedOut.self) {
            try await outcome(of: combined, timeout: .milliseconds(50))
        }
        tagged.queue.resume()
        // The callbacks were queued before this block, so they have run by the time it runs.
        let settled = tagged.queue.sync { combined.fulfilledValue }
        #expect(settled?.count == 2)
        #expect(settled?.first?.value == 1)
    }

    @Test("any(a, b) of one type needs no on: and is a tuple; an array when the result type says so")
    func twoOfOneType() async throws {
        let first = FBLPromise(1)
        let second = FBLPromise<Int>(TestError(2))
        let pair = try await value(of: any(first, second))
        #expect(pair.0 == .value(1))
        #expect(pair.1 == .error(TestError(2)))
        let array: FBLPromise<[Maybe<Int>]> = any(first, second)
        #expect(try await value(of: array) == [.value(1), .error(TestError(2))])
    }

    @Test("Maybe is Equatable, as in google/promises: values by ==, errors as NSErrors")
    func maybeEquatable() {
        #expect(Maybe(1) == Maybe(1))
        #expect(Maybe(1) != Maybe(2))
        #expect(Maybe<Int>(TestError(1)) == Maybe<Int>(TestError(1)))
        #expect(Maybe<Int>(TestError(1)) != Maybe<Int>(TestError(2)))
        #expect(Maybe<Int>(TestError(1)) != Maybe(1))
        let nsError = NSError(domain: "test", code: 3)
        #expect(Maybe<Int>(nsError) == Maybe<Int>(NSError(domain: "test", code: 3)))
        #expect(Maybe<Int>(nsError) != Maybe<Int>(NSError(domain: "test", code: 4)))
        // An error type that is not Equatable compares as an NSError: domain and code.
        struct Opaque: Error {}
        #expect(Maybe<Int>(Opaque()) == Maybe<Int>(Opaque()))
        #expect(Maybe<Int>(Opaque()) != Maybe<Int>(TestError(1)))
        // Optional values and arrays compare through the same conformance.
        #expect(Maybe<Int?>(nil) == Maybe<Int?>(nil))
        #expect(Maybe<Int?>(nil) != Maybe<Int?>(1))
        #expect([Maybe(1), Maybe<Int>(TestError(2))] == [Maybe(1), Maybe<Int>(TestError(2))])
    }
}
