import AYPromises
import DesignRegistry
import Dispatch
import TestSupport
import Testing

/// The shared-protocol conformance beyond what the A+ suite covers.
@Suite("AY shared protocol")
struct AYAPlusTests {
    @Test("an AY promise is a thenable: its callbacks run on the main queue")
    func isThenable() async throws {
        let deferred = pending()
        let received = Recorder<String>()
        try await waitUntil { done in
            deferred.promise.then(
                resolvePromise: { value in
                    received.record("\(value!) main:\(MainQueue.isCurrent)")
                    done()
                },
                rejectPromise: { _ in done() }
            )
            deferred.resolve(9)
        }
        #expect(received.all == ["9 main:true"])
    }

    @Test("A+ then runs its callbacks on the main queue; nil callbacks pass both outcomes through")
    func aplusThen() async throws {
        let onMain = Recorder<Bool>()
        let mapped = AYAdapter.then(
            AYAdapter.resolved(1),
            onFulfilled: { value in
                onMain.record(MainQueue.isCurrent)
                return (value as! Int) + 1
            },
            onRejected: nil
        )
        #expect(try await value(of: mapped) as? Int == 2)
        #expect(onMain.all == [true])
        let passed = AYAdapter.then(AYAdapter.rejected(TestError(3)), onFulfilled: nil, onRejected: nil)
        #expect(try await error(of: passed) as? TestError == TestError(3))
        let fulfilled = AYAdapter.then(AYAdapter.resolved(4), onFulfilled: nil, onRejected: nil)
        #expect(try await value(of: fulfilled) as? Int == 4)
    }

    @Test("currentState and isCycleError")
    func stateAndCycle() {
        #expect(AYAdapter.state(of: AYAdapter.deferred().promise).isPending)
        #expect(AYAdapter.state(of: AYAdapter.resolved(5)).value.flatMap { $0 as? Int } == 5)
        #expect(AYAdapter.state(of: AYAdapter.rejected(TestError())).error != nil)
        #expect(AYAdapter.isCycleError(AYPromiseError.cycle))
        #expect(!AYAdapter.isCycleError(TestError()))
    }
}
