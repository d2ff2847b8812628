import Dispatch
public import PromiseCosts
import TinyPromise

// snippet: costs-adapter
/// What the cost runners need from TinyPromise: its own API, nothing added.
enum TinyCostAdapter: CostAdapter {
    static let name = "TinyPromise"

    static func makePending() -> (promise: TinyPromise, resolver: TinyPromise) {
        let promise = TinyPromise()
        return (promise, promise)
    }

    static func fulfill(_ resolver: TinyPromise, with value: Int) { resolver.resolve(value) }

    static func reject(_ resolver: TinyPromise, with error: any Error) { resolver.reject(error) }

    static func then(
        _ promise: TinyPromise, on queue: DispatchQueue, _ transform: @escaping @Sendable (Int) -> Int
    ) -> TinyPromise {
        promise.then(on: queue) { value in transform(value as! Int) }
    }

    static func whenSettled(
        _ promise: TinyPromise, on queue: DispatchQueue, _ callback: @escaping @Sendable () -> Void
    ) {
        _ = promise.then(
            on: queue,
            { value in
                callback()
                return value
            },
            { error in
                callback()
                throw error
            })
    }
}
// end-snippet

// snippet: costs-budgets
/// TinyPromise's operations and what one unit of each may cost: allocations in the debug build
/// `swift test` makes, instructions in a release build on x86_64 Linux.
public let tinyPromiseOperations = CountedOperation.standard(
    TinyCostAdapter.self,
    budgets: [
        .pendingWithOneThen: Budget(allocations: 7, pendingBytes: 350, instructions: 17_624),
        .chainLink: Budget(allocations: 11, instructions: 10_672),
        .errorLink: Budget(allocations: 10, instructions: 5_402),
        .fanOutObserver: Budget(allocations: 12, instructions: 11_868),
    ])
// end-snippet
