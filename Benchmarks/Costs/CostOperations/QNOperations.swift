public import CompareKit
public import DesignRegistry
import Dispatch
public import PromiseCosts
import QNTasks

/// QN: at most 3x per chain link, at most twice FBL's ratio on two and three chained blocks,
/// fan-out and concurrent, at most 3 times a Swift `Task`'s ratio on cancellation (from `cancel()`
/// to the final callback); 256 bytes and 6 allocations per pending promise with one `then`.
extension QNAdapter: CostedDesign {
    public static var costOperations: [CountedOperation] { QNOperations.all }
    public static var chainLinkOperation: String { "map link" }
    public static var targets: TargetTable.Limits {
        .init(
            ratios: ["chain": 3],
            relative: TargetTable.RelativeLimit.on(
                ["single-2", "single-3", "fan-out", "concurrent"], Design.fbl.rawValue, factor: 2
            )
            .merging(TargetTable.RelativeLimit.on(["cancel"], "Swift concurrency", factor: 3)) { first, _ in first },
            bytesPerPending: 256, allocationsPerPending: 6)
    }
}

/// QN's operations, written with its own API, and what each may cost.
enum QNOperations {
    static let queue = DispatchQueue(label: "costs.qn")

    static let all: [CountedOperation] = [
        // Allocations: the manual task, the continuation, the side table of the source's weak reference,
        // and the typed callback's wrapper (a task's core stores observers that take the outcome erased).
        // Bytes: the manual task and its start block, the continuation, the side table of the source's weak
        // reference and the typed callback's wrapper.
        .pendingWithOneThen(
            library: "QN", operation: "pending task with one map",
            budget: Budget(allocations: 4, pendingBytes: 464, instructions: 11_014), queue: queue
        ) { done in
            let root = QNAsyncManualTask<Int>()
            let next = root.map(on: queue) { $0 }
            next.start(on: queue) { _ in done.tick() }
            return (root, next)
        } settle: { (root: QNAsyncManualTask<Int>) in
            root.succeed(1)
        },
        // Allocations: the continuation, a side table (each link refers weakly to its source, which gives
        // the source one), and its hop (GCD's closure and block).
        CountedOperation(
            library: "QN", operation: "map link", comparedWith: "chain link",
            budget: Budget(allocations: 4, instructions: 5_542)
        ) { units, start, stop in chain(units, start, stop, rejecting: false) },
        // Allocations: as a map link; the failure passes every link without running its block.
        CountedOperation(
            library: "QN", operation: "error link",
            budget: Budget(allocations: 4, instructions: 5_397)
        ) { units, start, stop in chain(units, start, stop, rejecting: true) },
        // Allocations: the continuation, its hop, its callback's wrapper and the source's observer growth.
        CountedOperation(
            library: "QN", operation: "fan-out observer",
            budget: Budget(allocations: 8, instructions: 8_968)
        ) { units, start, stop in
            let done = Countdown(units)
            start()
            let root = QNAsyncManualTask<Int>()
            for _ in 0..<units { root.map(on: queue) { $0 }.start(on: queue) { _ in done.tick() } }
            queue.holding { root.succeed(1) }
            done.wait()
            stop()
        },
    ]

    /// A chain of `units` maps on a manual task that succeeds, or fails (every link then passes the
    /// failure on without running its block); the end started with a callback.
    static func chain(_ units: Int, _ start: () -> Void, _ stop: () -> Void, rejecting: Bool) {
        let done = Countdown(1)
        start()
        let root = QNAsyncManualTask<Int>()
        var last: QNAsyncTask<Int> = root
        for _ in 0..<units { last = last.map(on: queue) { $0 + 1 } }
        last.start(on: queue) { _ in done.tick() }
        if rejecting { root.fail(CostError()) } else { root.succeed(0) }
        done.wait()
        stop()
    }
}
