import DesignRegistry
import FBLPromises
import QNTasks
import TestSupport
import Testing

// QN's cells of the table "What a block's result does to the next promise" of
// Reports/design-review.md (BlockResultTests.swift, beside this folder, describes the table).

@Suite("Block results: QN (the A+ then of QNPromise)")
struct QNBlockResultTests {
    @Test("a Void block fulfils with (); an Error value fulfils; another design's promise is adopted")
    func then() async throws {
        let void = QNAdapter.then(QNAdapter.resolved(1), onFulfilled: { value in note(value) }, onRejected: nil)
        #expect(try await outcome { try await void.value }.get() is Void)
        let error = QNAdapter.then(QNAdapter.resolved(1), onFulfilled: { _ in TestError(2) }, onRejected: nil)
        #expect(try await outcome { try await error.value }.get() as? TestError == TestError(2))
        let adopted = QNAdapter.then(QNAdapter.resolved(1), onFulfilled: { _ in FBLPromise(3) }, onRejected: nil)
        #expect(try await outcome { try await adopted.value }.get() as? Int == 3)
    }
}
