import Dispatch
import FBLPromises
import TestSupport
import Testing

@Suite("FBL awaitPromise")
struct FBLAwaitTests {
    @Test("awaitPromise blocks a background thread until the value arrives")
    func blocksUntilFulfilled() async throws {
        let promise = FBLPromise<Int>.pending()
        let result = Recorder<Int>()
        try await waitUntil("the blocked thread") { done in
            DispatchQueue.global().async {
                // Scheduled from the blocking block itself, so the fulfil comes 20 ms after
                // `awaitPromise` started waiting however late this block ran (scheduled from the
                // test, it could come first, and the test would pass without ever blocking).
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) { promise.fulfill(4) }
                if let value = try? awaitPromise(promise) { result.record(value) }
                done()
            }
        }
        #expect(result.all == [4])
    }

    @Test("awaitPromise throws the promise's error")
    func throwsError() {
        #expect(throws: TestError(5)) { try awaitPromise(FBLPromise<Int>(TestError(5))) }
    }

    @Test("awaitPromise returns a settled value even on the default queue")
    func settledOnDefaultQueue() async throws {
        let result = Recorder<Int>()
        try await waitUntil { done in
            DispatchQueue.main.async {
                result.record((try? awaitPromise(FBLPromise(6))) ?? -1)
                done()
            }
        }
        #expect(result.all == [6])
    }
}
