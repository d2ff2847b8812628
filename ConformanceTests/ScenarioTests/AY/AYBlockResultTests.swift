import AYPromises
import FBLPromises
import QXPromises
import TestSupport
import Testing

// AY's cells of the table "What a block's result does to the next promise" of
// Reports/design-review.md (BlockResultTests.swift, beside this folder, describes the table).

@Suite("Block results: AY")
struct AYBlockResultTests {
    @Test(
        "then: nothing fulfils with nil; an Error value rejects; another design's promise is adopted; a throw rejects")
    func then() async throws {
        let void = AYPromise.with(1).then { value in note(value) }
        #expect(try await outcome { try await void.value }.get() == nil)
        let error = AYPromise.with(1).then { _ in TestError(2) }
        await #expect(throws: TestError(2)) { try await outcome { try await error.value }.get() }
        let adopted = AYPromise.with(1).then { _ in FBLPromise(3) }
        #expect(try await outcome { try await adopted.value }.get() as? Int == 3)
        let thrown = AYPromise.with(1).then { _ in throw TestError(4) }
        await #expect(throws: TestError(4)) { try await outcome { try await thrown.value }.get() }
    }

    @Test("catch: nothing recovers with nil; an Error value rejects with it; another design's promise is adopted")
    func errorHandler() async throws {
        let void = AYPromise.with(TestError(1)).catch { error in note(error) }
        #expect(try await outcome { try await void.value }.get() == nil)
        let error = AYPromise.with(TestError(1)).catch { _ in TestError(2) }
        await #expect(throws: TestError(2)) { try await outcome { try await error.value }.get() }
        let adopted = AYPromise.with(TestError(1)).catch { _ in QXPromise(fulfilledWith: 3) }
        #expect(try await outcome { try await adopted.value }.get() as? Int == 3)
        let thrown = AYPromise.with(TestError(1)).catch { _ in throw TestError(4) }
        await #expect(throws: TestError(4)) { try await outcome { try await thrown.value }.get() }
    }
}
