import AYPromises
import DesignRegistry
import FBLPromises
import QNTasks
import QXPromises
import TestSupport
import Testing

// The table "What a block's result does to the next promise" of Reports/design-review.md, cell by
// cell: what a block that returns nothing, returns an `Error` value, returns another design's
// promise or throws does to the next promise, in each design. Cells marked "does not compile"
// there have no test here.

@Sendable private func note<Observed: Sendable>(_: Observed) {}

/// Waits for an outcome of any design, through `value`.
private func outcome<Value: Sendable>(
    _ value: @escaping @Sendable () async throws -> Value
) async throws -> Result<Value, any Error> {
    try await awaitOutcome("the next promise", of: value)
}

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
