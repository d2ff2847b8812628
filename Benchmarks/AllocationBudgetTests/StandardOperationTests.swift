import BatchedPromises
import Dispatch
import PromiseCosts
import TestSupport
import Testing

/// The cost product's five standard operations, run through an adapter with an `all` (one over
/// the project's own design, as an outside library would write it): each does its units and
/// returns, so that a runner never waits on an operation that lost a callback.
@Suite("The cost product's standard operations")
struct StandardOperationTests {
    enum BatchedCostAdapter: CostAdapterWithAll {
        static let name = "Batched"

        static func makePending() -> (promise: Promise<Int, any Error>, resolver: Promise<Int, any Error>.Resolver) {
            Promise<Int, any Error>.makePending()
        }

        static func fulfill(_ resolver: Promise<Int, any Error>.Resolver, with value: Int) { resolver.fulfill(value) }

        static func reject(_ resolver: Promise<Int, any Error>.Resolver, with error: any Error) {
            resolver.reject(error)
        }

        static func then(
            _ promise: Promise<Int, any Error>, on queue: DispatchQueue, _ transform: @escaping @Sendable (Int) -> Int
        ) -> Promise<Int, any Error> {
            promise.map(on: queue, transform)
        }

        static func whenSettled(
            _ promise: Promise<Int, any Error>, on queue: DispatchQueue, _ callback: @escaping @Sendable () -> Void
        ) {
            promise.whenComplete(on: queue) { _ in callback() }
        }

        static func whenAllFulfilled(
            _ promises: [Promise<Int, any Error>], on queue: DispatchQueue,
            _ callback: @escaping @Sendable () -> Void
        ) {
            Promise.all(promises).whenComplete(on: queue) { _ in callback() }
        }
    }

    @Test("all five run to the end, each between its start and stop, named by the library")
    func allFiveRun() async throws {
        let operations = CountedOperation.standard(BatchedCostAdapter.self)
        #expect(
            operations.map(\.operation) == [
                "pending promise with one then", "chain link", "error link", "fan-out observer", "all input",
            ])
        #expect(operations.allSatisfy { $0.name.hasPrefix("Batched ") })
        #expect(operations.first { $0.operation == "error link" }?.comparedWith == "chain link")
        let calls = try await offPool("the standard operations") {
            operations.map { operation in
                var calls: [String] = []
                operation.run(100, { calls.append("start") }, { calls.append("stop") })
                return calls
            }
        }
        #expect(calls.allSatisfy { $0 == ["start", "stop"] })
    }
}
