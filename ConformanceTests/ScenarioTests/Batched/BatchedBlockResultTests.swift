import AYPromises
import BatchedPromises
import TestSupport
import Testing

// Batched's cells of the table "What a block's result does to the next promise" of
// Reports/design-review.md (BlockResultTests.swift, beside this folder, describes the table). Its
// blocks are typed: what a block returns is the next promise's value, a throw of the promise's
// failure type is its failure, and only `flatMap` (or `recover`'s promise form) adopts, and only
// a promise of this module. The untyped `then(onFulfilled:onRejected:)` of the A+ suite follows
// the resolution procedure instead.

@Suite("Block results: Batched")
struct BatchedBlockResultTests {
    @Test(
        "map: nothing fulfils with (); an Error value is the value; another design's promise is the value; a throw rejects"
    )
    func map() async throws {
        let void = Promise<Int, TestError>(value: 1).map { value in note(value) }
        #expect(try await outcome { try await void.value }.get() == ())
        let error = Promise<Int, TestError>(value: 1).map { _ in TestError(2) }
        #expect(try await outcome { try await error.value }.get() == TestError(2))
        let other = AYPromise.with(3)
        let held = Promise<Int, TestError>(value: 1).map { _ in other }
        #expect(try await outcome { try await held.value }.get() === other)
        let thrown = Promise<Int, TestError>(value: 1).map { _ throws(TestError) -> Int in throw TestError(4) }
        await #expect(throws: TestError(4)) { try await outcome { try await thrown.value }.get() }
    }

    @Test("catch observes and leaves it rejected; recover's throw rejects, a promise it returns is adopted")
    func errorHandlers() async throws {
        let void = Promise<Int, TestError>(failure: TestError(1)).catch { error in note(error) }
        await #expect(throws: TestError(1)) { try await outcome { try await void.value }.get() }
        let thrown = Promise<Int, TestError>(failure: TestError(1)).recover { _ throws(TestError) -> Int in
            throw TestError(3)
        }
        await #expect(throws: TestError(3)) { try await outcome { try await thrown.value }.get() }
        let adopted = Promise<Int, TestError>(failure: TestError(1)).recover { _ in Promise<Int, Never>(value: 5) }
        #expect(try await outcome { try await adopted.value }.get() == 5)
    }

    @Test("the A+ then: another design's promise is adopted, an Error value fulfils, a throw rejects")
    func aplusThen() async throws {
        let untyped = Promise<PromiseValue, any Error>(value: 1)
        let adopted = untyped.then(onFulfilled: { _ in AYPromise.with(3) }, onRejected: nil)
        #expect(try await outcome { try await adopted.value }.get() as? Int == 3)
        let error = untyped.then(onFulfilled: { _ in TestError(2) }, onRejected: nil)
        #expect(try await outcome { try await error.value }.get() as? TestError == TestError(2))
        let thrown = untyped.then(onFulfilled: { _ in throw TestError(4) }, onRejected: nil)
        await #expect(throws: TestError(4)) { try await outcome { try await thrown.value }.get() }
    }
}
