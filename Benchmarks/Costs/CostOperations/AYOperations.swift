import AYPromises
public import CompareKit
public import DesignRegistry
import Dispatch
public import PromiseCosts
import SharedPromiseTypes

/// AY: at most 1.3 times FBL's ratio on single, chain, all, fan-out and error propagation; 256
/// bytes and 6 allocations per pending promise with one `then`.
extension AYAdapter: CostedDesign {
    public static var costOperations: [CountedOperation] { AYOperations.all }
    public static var targets: TargetTable.Limits {
        .init(
            relative: TargetTable.RelativeLimit.on(
                ["single", "chain", "all", "fan-out", "errors"], Design.fbl.rawValue, factor: 1.3),
            bytesPerPending: 256, allocationsPerPending: 6)
    }
}

/// AY's operations, written with its own API, and what each may cost.
enum AYOperations {
    static let queue = DispatchQueue(label: "costs.ay")

    static let all: [CountedOperation] = [
        // Allocations: the promise `then` returns and its one handler, which holds the block as written.
        .pendingWithOneThen(
            library: "AY", budget: Budget(allocations: 3, pendingBytes: 353, instructions: 11_040), queue: queue
        ) { done in
            let root = AYPromise.pending()
            return (root, root.promise.thenOn(queue) { (_: PromiseValue) in done.tick() })
        } settle: { root in
            root.resolve(1)
        },
        // Allocations: the above, and GCD's block for the handler's dispatch.
        CountedOperation(
            library: "AY", operation: "chain link",
            budget: Budget(allocations: 4, instructions: 6_343)
        ) { units, start, stop in
            let done = Countdown(1)
            start()
            let root = AYPromise.pending()
            var last = root.promise
            for _ in 0..<units { last = last.thenOn(queue) { (value: PromiseValue) in ((value as? Int) ?? 0) + 1 } }
            last.thenOn(queue) { (_: PromiseValue) in done.tick() }
            root.resolve(0)
            done.wait()
            stop()
        },
        // Allocations: the link and its handler in the shared list (the list's array grows, amortised).
        CountedOperation(
            library: "AY", operation: "fan-out observer",
            budget: Budget(allocations: 6, instructions: 7_642)
        ) { units, start, stop in
            let done = Countdown(units)
            start()
            let root = AYPromise.pending()
            for _ in 0..<units { root.promise.thenOn(queue) { (_: PromiseValue) in done.tick() } }
            queue.holding { root.resolve(1) }
            done.wait()
            stop()
        },
        // Allocations: `all`'s handler per input.
        CountedOperation(
            library: "AY", operation: "all input",
            budget: Budget(allocations: 2, instructions: 12_000)
        ) { units, start, stop in
            let done = Countdown(1)
            let inputs = (0..<units).map { _ in AYPromise.pending() }
            let promises = inputs.map(\.promise)
            start()
            AYPromise.all(promises).thenOn(queue) { (_: PromiseValue) in done.tick() }
            stop()
            queue.holding { for (index, input) in inputs.enumerated() { input.resolve(index) } }
            done.wait()
        },
    ]
}
