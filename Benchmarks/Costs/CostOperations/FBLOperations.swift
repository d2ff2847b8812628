public import CompareKit
public import DesignRegistry
import Dispatch
import FBLPromises
public import PromiseCosts

/// FBL, the design closest to raw GCD: at most 1.5x on single and per chain link, and at or below
/// SwiftNIO's ratio on single, chain, all, fan-out and error propagation; at most 200 bytes and 4
/// allocations per pending promise with one `then`.
extension FBLAdapter: CostedDesign {
    public static var costOperations: [CountedOperation] { FBLOperations.all }
    public static var targets: TargetTable.Limits {
        .init(
            ratios: ["single": 1.5, "chain": 1.5],
            relative: TargetTable.RelativeLimit.on(["single", "chain", "all", "fan-out", "errors"], "NIO", factor: 1),
            bytesPerPending: 200, allocationsPerPending: 4)
    }
}

/// FBL's operations, written with its own API, and what each may cost.
enum FBLOperations {
    static let queue = DispatchQueue(label: "costs.fbl")

    static let all: [CountedOperation] = [
        // Allocations: the pending promise, and the promise `then` returns, which holds the callback and is its own observer's
        // context (`FBLChainedPromise`).
        .pendingWithOneThen(
            library: "FBL", budget: Budget(allocations: 2, pendingBytes: 281, instructions: 8_640), queue: queue
        ) { done in
            let root = FBLPromise<Int>.pending()
            return (root, root.then(on: queue) { _ in done.tick() })
        } settle: { root in
            root.fulfill(1)
        },
        // Allocations: the above, and GCD's closure and block for the callback.
        CountedOperation(
            library: "FBL", operation: "chain link",
            budget: Budget(allocations: 3, instructions: 4_547)
        ) { units, start, stop in chain(units, start, stop, rejecting: false) },
        // Allocations: as a chain link; the rejection passes every link without running its block.
        CountedOperation(
            library: "FBL", operation: "error link",
            budget: Budget(allocations: 3, instructions: 4_684)
        ) { units, start, stop in chain(units, start, stop, rejecting: true) },
        // Allocations: the link, its hop, and its observer's slot in the list (the array grows, amortised).
        CountedOperation(
            library: "FBL", operation: "fan-out observer",
            budget: Budget(allocations: 5, instructions: 5_459)
        ) { units, start, stop in
            let done = Countdown(units)
            start()
            let root = FBLPromise<Int>.pending()
            for _ in 0..<units { root.then(on: queue) { _ in done.tick() } }
            queue.holding { root.fulfill(1) }
            done.wait()
            stop()
        },
        // Allocations: `observe`'s two callbacks and its observer, per input.
        CountedOperation(
            library: "FBL", operation: "all input",
            budget: Budget(allocations: 3, instructions: 7_537)
        ) { units, start, stop in
            let done = Countdown(1)
            let inputs = (0..<units).map { _ in FBLPromise<Int>.pending() }
            start()
            FBLPromises.all(on: queue, inputs).then(on: queue) { _ in done.tick() }
            stop()
            queue.holding { for (index, input) in inputs.enumerated() { input.fulfill(index) } }
            done.wait()
        },
    ]

    /// A chain of `units` links on a pending root that is fulfilled, or rejected (every link then
    /// passes the rejection on without running its block); the end observed either way.
    static func chain(_ units: Int, _ start: () -> Void, _ stop: () -> Void, rejecting: Bool) {
        let done = Countdown(1)
        start()
        let root = FBLPromise<Int>.pending()
        var last = root
        for _ in 0..<units { last = last.then(on: queue) { $0 + 1 } }
        last.then(on: queue) { _ in done.tick() }.catch(on: queue) { _ in done.tick() }
        if rejecting { root.reject(CostError()) } else { root.fulfill(0) }
        done.wait()
        stop()
    }
}
