import AYPromises
import CompareKit
import DesignRegistry
import Dispatch
import FBLPromises
import Foundation
import MallocInterposerSwift
import PromiseInterface
import QNTasks
import QXPromises
import Synchronization

/// Counts the heap allocations of each design's basic operations, exactly, and the bytes they
/// request, and prints them as JSON lines:
/// `{"design":"FBL","operation":"chain link","allocations":7,"measured":7.001,"bytes":240}`.
///
/// SwiftNIO's allocation-counter tests in our terms: `AllocationBudgetTests` runs this tool and
/// fails when an operation allocates more (or fewer) times than its budget, so a regression fails
/// CI deterministically, where a timing goal could not. Each operation is run at two sizes and the
/// difference is divided by the difference of the sizes, so one-time costs (a queue's first
/// block, a thread's first dispatch, the caches of the Swift runtime) cancel out.
///
/// It is its own executable because counting needs ordo-one's malloc-interposer, which replaces
/// `malloc` for the whole process: linked into the test bundle it would count every test running
/// in parallel, and clash with the sanitizers' allocators.
@main
enum AllocationCounter {
    static func main() {
        MallocInterposerSwift.initialize()
        for measurement in FBLOperations.all + AYOperations.all + QXOperations.all + QNOperations.all {
            let perUnit = perUnit(measurement.run)
            // Rounded: a dispatch continuation cache refilled, or an array doubling, inside one of
            // the two runs shows as a few thousandths; a real extra allocation as a whole one.
            let allocations = Int(perUnit.allocations.rounded())
            let bytes = Int(perUnit.bytes.rounded())
            print(
                #"{"design":"\#(measurement.design)","operation":"\#(measurement.operation)","allocations":\#(allocations),"measured":\#(perUnit.allocations),"bytes":\#(bytes)}"#
            )
        }
    }

    /// Allocations and requested bytes per unit of `run(units)`, from runs of 1,000 and 2,000
    /// units after a warm-up; each size the least of three runs.
    ///
    /// The hook counts every thread's allocations, and work left over from an earlier operation
    /// (a queue's thread winding down) can allocate inside a counting window. That only ever adds,
    /// so the least of three runs is the operation's own count (a CI run under load once measured
    /// FBL's `all` input as 2.49 allocations against its 3, from one run per size).
    static func perUnit(_ run: (Int, () -> Void, () -> Void) -> Void) -> (allocations: Double, bytes: Double) {
        let small = 1_000
        let large = 2_000
        _ = count(small, run)
        let atSmall = least(of: 3) { count(small, run) }
        let atLarge = least(of: 3) { count(large, run) }
        let units = Double(large - small)
        return (
            Double(atLarge.allocations - atSmall.allocations) / units,
            Double(atLarge.bytes - atSmall.bytes) / units
        )
    }

    /// The smallest allocation and byte counts of `runs` measurements.
    static func least(of runs: Int, _ measure: () -> (allocations: Int, bytes: Int)) -> (allocations: Int, bytes: Int) {
        (0..<runs).map { _ in measure() }.reduce((Int.max, Int.max)) { (min($0.0, $1.0), min($0.1, $1.1)) }
    }

    /// The allocations `run` makes between its `start` and `stop` calls, and the bytes they
    /// request.
    static func count(_ units: Int, _ run: (Int, () -> Void, () -> Void) -> Void) -> (allocations: Int, bytes: Int) {
        var total = (allocations: 0, bytes: 0)
        run(
            units,
            {
                MallocInterposerSwift.reset()
                MallocInterposerSwift.hook()
            },
            {
                MallocInterposerSwift.unhook()
                let statistics = MallocInterposerSwift.getStatistics()
                total = (statistics.mallocCount, statistics.mallocBytesCount)
            }
        )
        return total
    }
}

/// One counted operation: `run(units, start, stop)` sets up, calls `start`, does `units` units of
/// the operation, calls `stop`, then tears down.
///
/// What is counted between `start` and `stop` must not depend on thread timing, or the count
/// would not be exact. Settling and running callbacks on one serial queue is exact (a chain
/// link: each link's callback dispatches the next from the thread draining the queue). Settling
/// from another thread is not: GCD's per-thread caches of queued work then refill from the heap
/// depending on which worker ran what (`all` counted through its settlement varied between 8 and
/// 14 allocations per input from run to run). So `all input` counts registering on pending
/// inputs, and `fan-out observer` counts registering and one settle from this thread.
struct Measurement: Sendable {
    let design: String
    let operation: String
    let run: @Sendable (Int, () -> Void, () -> Void) -> Void
}

extension Countdown {
    /// Waits for the last tick; a lost callback ends the process instead of hanging it.
    func wait() {
        guard sum(waitingAtMost: .seconds(120)) != nil else {
            FileHandle.standardError.write(Data("AllocationCounter: timed out\n".utf8))
            exit(1)
        }
    }
}

enum FBLOperations {
    static let queue = DispatchQueue(label: "allocations.fbl")

    static let all: [Measurement] = [
        Measurement(design: "FBL", operation: "pending promise with one then") { units, start, stop in
            let done = Countdown(units)
            var roots: [FBLPromise<Int>] = []
            var thens: [FBLPromise<Int>] = []
            roots.reserveCapacity(units)
            thens.reserveCapacity(units)
            start()
            for _ in 0..<units {
                let root = FBLPromise<Int>.pending()
                roots.append(root)
                thens.append(root.then(on: queue) { _ in done.tick() })
            }
            stop()
            for root in roots { root.fulfill(1) }
            done.wait()
            withExtendedLifetime(thens) {}
        },
        Measurement(design: "FBL", operation: "chain link") { units, start, stop in
            let done = Countdown(1)
            start()
            let root = FBLPromise<Int>.pending()
            var last = root
            for _ in 0..<units { last = last.then(on: queue) { $0 + 1 } }
            last.then(on: queue) { _ in done.tick() }
            root.fulfill(0)
            done.wait()
            stop()
        },
        Measurement(design: "FBL", operation: "fan-out observer") { units, start, stop in
            let done = Countdown(units)
            start()
            let root = FBLPromise<Int>.pending()
            for _ in 0..<units { root.then(on: queue) { _ in done.tick() } }
            root.fulfill(1)
            done.wait()
            stop()
        },
        Measurement(design: "FBL", operation: "all input") { units, start, stop in
            let done = Countdown(1)
            let inputs = (0..<units).map { _ in FBLPromise<Int>.pending() }
            start()
            FBLPromises.all(on: queue, inputs).then(on: queue) { _ in done.tick() }
            stop()
            for (index, input) in inputs.enumerated() { input.fulfill(index) }
            done.wait()
        },
    ]
}

enum AYOperations {
    static let queue = DispatchQueue(label: "allocations.ay")

    static let all: [Measurement] = [
        Measurement(design: "AY", operation: "pending promise with one then") { units, start, stop in
            let done = Countdown(units)
            var roots: [Deferred<AYPromise>] = []
            var thens: [AYPromise] = []
            roots.reserveCapacity(units)
            thens.reserveCapacity(units)
            start()
            for _ in 0..<units {
                let root = AYPromise.deferred()
                roots.append(root)
                thens.append(root.promise.thenOn(queue) { (_: PromiseValue) in done.tick() })
            }
            stop()
            for root in roots { root.resolve(1) }
            done.wait()
            withExtendedLifetime(thens) {}
        },
        Measurement(design: "AY", operation: "chain link") { units, start, stop in
            let done = Countdown(1)
            start()
            let root = AYPromise.deferred()
            var last = root.promise
            for _ in 0..<units { last = last.thenOn(queue) { (value: PromiseValue) in ((value as? Int) ?? 0) + 1 } }
            last.thenOn(queue) { (_: PromiseValue) in done.tick() }
            root.resolve(0)
            done.wait()
            stop()
        },
        Measurement(design: "AY", operation: "fan-out observer") { units, start, stop in
            let done = Countdown(units)
            start()
            let root = AYPromise.deferred()
            for _ in 0..<units { root.promise.thenOn(queue) { (_: PromiseValue) in done.tick() } }
            root.resolve(1)
            done.wait()
            stop()
        },
        Measurement(design: "AY", operation: "all input") { units, start, stop in
            let done = Countdown(1)
            let inputs = (0..<units).map { _ in AYPromise.deferred() }
            let promises = inputs.map(\.promise)
            start()
            AYPromise.all(promises).thenOn(queue) { (_: PromiseValue) in done.tick() }
            stop()
            for (index, input) in inputs.enumerated() { input.resolve(index) }
            done.wait()
        },
    ]
}

enum QXOperations {
    static let queue = DispatchQueue(label: "allocations.qx")

    static let all: [Measurement] = [
        Measurement(design: "QX", operation: "pending promise with one then") { units, start, stop in
            let done = Countdown(units)
            var roots: [(promise: QXPromise, resolver: QXResolver)] = []
            var thens: [QXPromise] = []
            roots.reserveCapacity(units)
            thens.reserveCapacity(units)
            start()
            for _ in 0..<units {
                let root = QXPromise.pending(on: queue)
                roots.append(root)
                thens.append(
                    root.promise.then(on: queue) { _ in
                        done.tick()
                        return nil
                    })
            }
            stop()
            for root in roots { root.resolver.fulfill(1) }
            done.wait()
            withExtendedLifetime(thens) {}
        },
        Measurement(design: "QX", operation: "chain link") { units, start, stop in
            let done = Countdown(1)
            start()
            let root = QXPromise.pending(on: queue)
            var last = root.promise
            for _ in 0..<units { last = last.then(on: queue) { ($0 as? Int ?? 0) + 1 } }
            last.then(on: queue) { _ in
                done.tick()
                return nil
            }
            root.resolver.fulfill(0)
            done.wait()
            stop()
        },
        Measurement(design: "QX", operation: "fan-out observer") { units, start, stop in
            let done = Countdown(units)
            start()
            let root = QXPromise.pending(on: queue)
            for _ in 0..<units {
                root.promise.then(on: queue) { _ in
                    done.tick()
                    return nil
                }
            }
            root.resolver.fulfill(1)
            done.wait()
            stop()
        },
        Measurement(design: "QX", operation: "all input") { units, start, stop in
            let done = Countdown(1)
            let inputs = (0..<units).map { _ in QXPromise.pending(on: queue) }
            start()
            QXPromise.all(on: queue, inputs.map(\.promise)).then(on: queue) { _ in
                done.tick()
                return nil
            }
            stop()
            for (index, input) in inputs.enumerated() { input.resolver.fulfill(index) }
            done.wait()
        },
        Measurement(design: "QX", operation: "key-value observation") { units, start, stop in
            let (promise, resolver) = QXPromise.pending(on: queue)
            var tokens: [QXObservation] = []
            tokens.reserveCapacity(units)
            start()
            for _ in 0..<units { tokens.append(promise.observe(\.state, options: [.new]) { _, _ in }) }
            stop()
            resolver.fulfill(1)
            withExtendedLifetime(tokens) {}
        },
    ]
}

enum QNOperations {
    static let queue = DispatchQueue(label: "allocations.qn")

    static let all: [Measurement] = [
        Measurement(design: "QN", operation: "pending task with one map") { units, start, stop in
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
            for root in roots { root.succeed(1) }
            done.wait()
            withExtendedLifetime(maps) {}
        },
        Measurement(design: "QN", operation: "map link") { units, start, stop in
            let done = Countdown(1)
            start()
            let root = QNAsyncManualTask<Int>()
            var last: QNAsyncTask<Int> = root
            for _ in 0..<units { last = last.map(on: queue) { $0 + 1 } }
            last.start(on: queue) { _ in done.tick() }
            root.succeed(0)
            done.wait()
            stop()
        },
        Measurement(design: "QN", operation: "fan-out observer") { units, start, stop in
            let done = Countdown(units)
            start()
            let root = QNAsyncManualTask<Int>()
            for _ in 0..<units { root.map(on: queue) { $0 }.start(on: queue) { _ in done.tick() } }
            root.succeed(1)
            done.wait()
            stop()
        },
    ]
}
