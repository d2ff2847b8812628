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
        let mapped = AYPromise.resolved(1).then(
            onFulfilled: { value in
                onMain.record(MainQueue.isCurrent)
                return (value as! Int) + 1
            },
            onRejected: nil
        )
        #expect(try await value(of: mapped) as? Int == 2)
        #expect(onMain.all == [true])
        let passed = AYPromise.rejected(TestError(3)).then(onFulfilled: nil, onRejected: nil)
        #expect(try await error(of: passed) as? TestError == TestError(3))
        let fulfilled = AYPromise.resolved(4).then(onFulfilled: nil, onRejected: nil)
        #expect(try await value(of: fulfilled) as? Int == 4)
    }

    @Test("currentState and isCycleError")
    func stateAndCycle() {
        #expect(AYPromise.deferred().promise.currentState.isPending)
        #expect(AYPromise.resolved(5).currentState.value.flatMap { $0 as? Int } == 5)
        #expect(AYPromise.rejected(TestError()).currentState.error != nil)
        #expect(AYPromise.isCycleError(AYPromiseError.cycle))
        #expect(!AYPromise.isCycleError(TestError()))
    }
}
