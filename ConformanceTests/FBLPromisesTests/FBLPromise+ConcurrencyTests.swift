import Dispatch
import FBLPromises
import TestSupport
import Testing

@Suite("FBL async/await bridge")
struct FBLConcurrencyTests {
    @Test("await value() returns the value or throws the error")
    func awaitValue() async throws {
        let later = FBLPromise<Int>.pending()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { later.fulfill(1) }
        #expect(try await later.value() == 1)
        await #expect(throws: TestError(2)) { try await FBLPromise<Int>(TestError(2)).value() }
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
}
