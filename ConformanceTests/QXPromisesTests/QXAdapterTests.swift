import DesignRegistry
import Dispatch
import QXPromises
import TestSupport
import Testing

/// The shared-protocol conformance beyond what the A+ suite covers.
@Suite("QX shared protocol")
struct QXAPlusTests {
    @Test("a QX promise is a thenable any design can adopt")
    func isThenable() async throws {
        let (promise, resolver) = QXPromise.pending(on: .global())
        let received = Recorder<Int>()
        try await waitUntil { done in
            promise.then(
                resolvePromise: { value in
                    received.record(value as? Int ?? -1)
                    done()
                },
                rejectPromise: { _ in done() }
            )
            resolver.fulfill(9)
        }
        #expect(received.all == [9])
    }

    @Test("deferred's resolve and reject count only once")
    func deferredOnce() async throws {
        let deferred = QXAdapter.deferred()
        deferred.resolve(1)
        deferred.reject(TestError())
        deferred.resolve(2)
        #expect(try await value(of: deferred.promise) as? Int == 1)
    }

    @Test("then with nil callbacks passes both outcomes through, on the main queue")
    func passThrough() async throws {
        let fulfilled = QXAdapter.then(QXAdapter.resolved(3), onFulfilled: nil, onRejected: nil)
        #expect(try await value(of: fulfilled) as? Int == 3)
        let rejected = QXAdapter.then(QXAdapter.rejected(TestError(4)), onFulfilled: nil, onRejected: nil)
        #expect(try await error(of: rejected) as? TestError == TestError(4))
        let onMain = QXAdapter.then(QXAdapter.resolved(5), onFulfilled: { _ in MainQueue.isCurrent }, onRejected: nil)
        #expect(try await value(of: onMain) as? Bool == true)
    }

    /// QX's rule, like Promises/A+ 2.3.4 and unlike FBL: an Error value is a value.
    @Test("a callback that returns an Error value fulfils with it")
    func errorValueFulfils() async throws {
        let promise = QXAdapter.then(QXAdapter.resolved(1), onFulfilled: { _ in TestError(7) }, onRejected: nil)
        #expect(try await value(of: promise) as? TestError == TestError(7))
    }
}
