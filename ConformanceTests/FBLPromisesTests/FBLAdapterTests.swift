import DesignRegistry
import Dispatch
import FBLPromises
import TestSupport
import Testing

/// The shared-protocol conformance beyond what the A+ suite covers.
@Suite("FBL shared protocol")
struct FBLAPlusTests {
    @Test("an FBL promise is a thenable any design can adopt")
    func isThenable() async throws {
        let promise = FBLPromise<Int>.pending()
        let received = Recorder<String>()
        try await waitUntil { done in
            promise.then(
                resolvePromise: { value in
                    received.record("\(value.map { "\($0)" } ?? "nil")")
                    done()
                },
                rejectPromise: { _ in done() }
            )
            promise.fulfill(9)
        }
        #expect(received.all == ["9"])
    }

    @Test("an FBL promise of one type adopts an FBL promise of another through the thenable path")
    func crossTypeAdoption() async throws {
        let typed = FBLPromise<Int>(on: .global()) { 10 }
        let dynamic = FBLPromise<PromiseValue>.pending()
        dynamic.resolve(typed as PromiseValue, on: .global())
        #expect(try await value(of: dynamic) as? Int == 10)
    }

    @Test("deferred's resolve and reject count only once")
    func deferredOnce() async throws {
        let deferred = FBLAdapter.deferred()
        deferred.resolve(1)
        deferred.reject(TestError())
        deferred.resolve(2)
        #expect(try await value(of: deferred.promise) as? Int == 1)
    }

    @Test("then with nil callbacks passes both outcomes through")
    func passThrough() async throws {
        let fulfilled = FBLAdapter.then(FBLAdapter.resolved(3), onFulfilled: nil, onRejected: nil)
        #expect(try await value(of: fulfilled) as? Int == 3)
        let rejected = FBLAdapter.then(FBLAdapter.rejected(TestError(4)), onFulfilled: nil, onRejected: nil)
        #expect(try await error(of: rejected) as? TestError == TestError(4))
    }

    /// google/promises' rule, kept on purpose: Promises/A+ 2.3.4 would fulfil with the error value.
    /// Recorded in Reports/conformance.md as the one place FBL departs from the spec's model.
    @Test("a callback that returns an Error value rejects, as in google/promises")
    func errorValueRejects() async throws {
        let promise = FBLAdapter.then(FBLAdapter.resolved(1), onFulfilled: { _ in TestError(7) }, onRejected: nil)
        #expect(try await error(of: promise) as? TestError == TestError(7))
    }
}
