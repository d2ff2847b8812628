import Dispatch
import FBLPromises
import TestSupport
import Testing

@Suite("FBL async/await bridge")
struct FBLConcurrencyTests {
    @Test("try await promise.value waits for the value or throws the error: the spelling of Task and the other designs")
    func awaitValue() async throws {
        let later = FBLPromise<Int>.pending()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { later.fulfill(1) }
        // Typed as `Int`: the synchronous `Value?` property this spelling used to read (getting
        // `nil` from a pending promise, with two warnings) no longer exists.
        let value: Int = try await later.value
        #expect(value == 1)
        await #expect(throws: TestError(2)) { try await FBLPromise<Int>(TestError(2)).value }
    }

    @Test("a promise made from an async closure settles with its result")
    func asyncInitializer() async throws {
        let fulfilled = FBLPromise<Int> {
            try await Task.sleep(for: .milliseconds(1))
            return 3
        }
        #expect(try await value(of: fulfilled) == 3)
        let rejected = FBLPromise<Int> { () async throws -> Int in throw TestError(4) }
        #expect(try await error(of: rejected) as? TestError == TestError(4))
    }

    @Test("a promise of an optional type fulfilled with nil: value is nil, result tells it from pending")
    func optionalFulfilledWithNil() async throws {
        let promise = FBLPromise<Int?>(nil)
        let value: Int? = try await awaitOutcome { try await promise.value }.get()
        #expect(value == nil)
        #expect(promise.isFulfilled)
        guard case .success(nil)? = promise.result else {
            Issue.record("expected .success(nil), got \(String(describing: promise.result))")
            return
        }
        #expect(FBLPromise<Int?>.pending().result == nil)
    }
}
