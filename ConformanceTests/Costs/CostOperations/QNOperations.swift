import CompareKit
import Dispatch
import QNTasks

/// QN's operations, written with its own API, and what each may cost.
enum QNOperations {
    static let queue = DispatchQueue(label: "costs.qn")

    static let all: [Measurement] = [
        // Allocations: the manual task, the continuation, the side table of the source's weak reference,
        // and the typed callback's wrapper (a task's core stores observers that take the outcome erased).
        // Bytes: the manual task and its start block, the continuation, the side table of the source's weak
        // reference and the typed callback's wrapper.
        Measurement(
            design: "QN", operation: "pending task with one map",
            budget: Budget(allocations: 4, pendingBytes: 464, instructions: 11_014)
        ) { units, start, stop in
            let done = Countdown(units)
            var roots: [QNAsyncManualTask<Int>] = []
            var maps: [QNAsyncContinuationTask<Int, Int>] = []
            roots.reserveCapacity(units)
            maps.reserveCapacity(units)
            start()
            for _ in 0..<units {
                let root = QNAsyncManualTask<Int>()
                roots.append(root)
                let next = root.map(on: queue) { $0 }
                next.start(on: queue) { _ in done.tick() }
                maps.append(next)
            }
            stop()
            queue.holding { for root in roots { root.succeed(1) } }
            done.wait()
            withExtendedLifetime(maps) {}
        },
        // Allocations: the continuation, a side table (each link refers weakly to its source, which gives
        // the source one), and its hop (GCD's closure and block).
        Measurement(
            design: "QN", operation: "map link",
            budget: Budget(allocations: 4, instructions: 5_542)
        ) { units, start, stop in chain(units, start, stop, rejecting: false) },
        // Allocations: as a map link; the failure passes every link without running its block.
        Measurement(
            design: "QN", operation: "error link",
            budget: Budget(allocations: 4, instructions: 5_397)
        ) { units, start, stop in chain(units, start, stop, rejecting: true) },
        // Allocations: the continuation, its hop, its callback's wrapper and the source's observer growth.
        Measurement(
            design: "QN", operation: "fan-out observer",
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
