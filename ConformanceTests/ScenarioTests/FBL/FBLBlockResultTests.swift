import AYPromises
import FBLPromises
import TestSupport
import Testing

// FBL's cells of the table "What a block's result does to the next promise" of
// Reports/design-review.md (BlockResultTests.swift, beside this folder, describes the table).

@Suite("Block results: FBL")
struct FBLBlockResultTests {
    @Test("then: nothing passes the value on; an Error value rejects; another design's promise is the value")
    func then() async throws {
        let void = FBLPromise(1).then { value in note(value) }
        #expect(try await outcome { try await void.value }.get() == 1)
        let error = FBLPromise(1).then { _ in TestError(2) }
        await #expect(throws: TestError(2)) { try await outcome { try await error.value }.get() }
        let other = AYPromise.with(3)
        let held = FBLPromise(1).then { _ in other }
        #expect(try await outcome { try await held.value }.get() === other)
        let adopted = FBLPromise<PromiseValue>(1).then { _ -> PromiseValue in other }
        #expect(try await outcome { try await adopted.value }.get() as? Int == 3)
        let thrown = FBLPromise(1).then { _ -> Int in throw TestError(4) }
        await #expect(throws: TestError(4)) { try await outcome { try await thrown.value }.get() }
    }

    @Test("catch observes and leaves it rejected; recover's throw rejects, a promise it returns is adopted")
    func errorHandlers() async throws {
        let void = FBLPromise<Int>(TestError(1)).catch { error in note(error) }
        await #expect(throws: TestError(1)) { try await outcome { try await void.value }.get() }
        let thrown = FBLPromise<Int>(TestError(1)).recover { _ -> Int in throw TestError(3) }
        await #expect(throws: TestError(3)) { try await outcome { try await thrown.value }.get() }
        let adopted = FBLPromise<PromiseValue>(TestError(1)).recover { _ -> PromiseValue in AYPromise.with(5) }
        #expect(try await outcome { try await adopted.value }.get() as? Int == 5)
    }
}
