import APlusSuite
import BatchedPromises
import DesignRegistry
import TestSupport
import Testing

@Suite("Batched: the adapter to the Promises/A+ suite")
struct BatchedAdapterTests {
    @Test("the registry knows the design and reads a promise's state without waiting")
    func registry() async throws {
        #expect(ObjectIdentifier(Design.batched.adapter) == ObjectIdentifier(BatchedAdapter.self))
        #expect(Design.batched.moduleName == "BatchedPromises")
        let deferred = BatchedAdapter.deferred()
        #expect(BatchedAdapter.state(of: deferred.promise).isPending)
        deferred.resolve(3)
        #expect(BatchedAdapter.state(of: deferred.promise).value as? Int == 3)
        let cancelled = BatchedAdapter.deferred().promise
        cancelled.cancel()
        #expect(BatchedAdapter.state(of: cancelled).error is CancellationError)
        #expect(Design.batched.storage(of: deferred.promise) === deferred.promise.storage)
    }

    @Test("then's callbacks run on the main queue")
    func mainQueue() async throws {
        let onMain = Recorder<Bool>()
        let promise = BatchedAdapter.then(
            BatchedAdapter.resolved(1),
            onFulfilled: { value in
                onMain.record(MainQueue.isCurrent)
                return value
            },
            onRejected: nil)
        #expect(try await value(of: promise) as? Int == 1)
        #expect(onMain.all == [true])
    }

    @Test("the cycle error is SelfResolutionError")
    func cycleError() {
        #expect(BatchedAdapter.isCycleError(SelfResolutionError()))
        #expect(!BatchedAdapter.isCycleError(TestError(1)))
    }
}
