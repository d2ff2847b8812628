import AYPromises
import FBLPromises
import QXPromises
import TestSupport
import Testing

// QX's cells of the table "What a block's result does to the next promise" of
// Reports/design-review.md (BlockResultTests.swift, beside this folder, describes the table).

@Suite("Block results: QX")
struct QXBlockResultTests {
    @Test(
        "then: a one-expression Void block fulfils with (); an Error value fulfils; another design's promise is adopted"
    )
    func then() async throws {
        let void = QXPromise(fulfilledWith: 1).then { value in note(value) }
        #expect(try await outcome { try await void.value }.get() is Void)
        let error = QXPromise(fulfilledWith: 1).then { _ in TestError(2) }
        #expect(try await outcome { try await error.value }.get() as? TestError == TestError(2))
        let adopted = QXPromise(fulfilledWith: 1).then { _ in FBLPromise(3) }
        #expect(try await outcome { try await adopted.value }.get() as? Int == 3)
        let thrown = QXPromise(fulfilledWith: 1).then { _ in throw TestError(4) }
        await #expect(throws: TestError(4)) { try await outcome { try await thrown.value }.get() }
    }

    @Test("catch: a one-expression Void block recovers with (); an Error value fulfils; a throw stays rejected")
    func errorHandler() async throws {
        let void = QXPromise(rejectedWith: TestError(1)).catch { error in note(error) }
        #expect(try await outcome { try await void.value }.get() is Void)
        let error = QXPromise(rejectedWith: TestError(1)).catch { _ in TestError(2) }
        #expect(try await outcome { try await error.value }.get() as? TestError == TestError(2))
        let adopted = QXPromise(rejectedWith: TestError(1)).catch { _ in AYPromise.with(3) }
        #expect(try await outcome { try await adopted.value }.get() as? Int == 3)
        let thrown = QXPromise(rejectedWith: TestError(1)).catch { error in throw error }
        await #expect(throws: TestError(1)) { try await outcome { try await thrown.value }.get() }
    }
}
