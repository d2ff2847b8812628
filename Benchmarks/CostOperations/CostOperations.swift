import AYPromises
import CompareKit
import DesignRegistry
import Dispatch
import FBLPromises
import Foundation
import QNTasks
import QXPromises

/// Every design's basic operations, as the cost counters run them: `AllocationCounter` counts
/// their allocations, `InstructionCounter` their instructions, each per unit by the difference of
/// two sizes.
public enum CostOperations {
    /// Every operation, design by design.
    public static let all: [Measurement] =
        GCDOperations.all + FBLOperations.all + AYOperations.all + QXOperations.all + QNOperations.all
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
public struct Measurement: Sendable {
    public let design: String
    public let operation: String
    public let run: @Sendable (Int, () -> Void, () -> Void) -> Void

    /// `"FBL chain link"`: the name budgets are keyed by.
    public var name: String { "\(design) \(operation)" }
}

extension Countdown {
    /// Waits for the last tick; a lost callback ends the process instead of hanging it.
    func wait() {
        guard sum(waitingAtMost: .seconds(120)) != nil else {
            FileHandle.standardError.write(Data("\(CommandLine.arguments[0]): an operation timed out\n".utf8))
            exit(1)
        }
    }
}

/// Raw GCD doing what a promise's operation does, for comparison (no budget in the allocation
/// test, whose subject is the designs).
enum GCDOperations {
    static let queue = DispatchQueue(label: "costs.gcd")

    static let all: [Measurement] = [
        Measurement(design: "GCD", operation: "chain link") { units, start, stop in
            let done = Countdown(1)
            start()
            // Each block dispatches the next, as each link's callback settles the next link.
            @Sendable func hop(_ remaining: Int, _ value: Int) {
                guard remaining > 0 else { return done.tick() }
                queue.async { hop(remaining - 1, value + 1) }
            }
            hop(units, 0)
            done.wait()
            stop()
        },
        Measurement(design: "GCD", operation: "fan-out observer") { units, start, stop in
            let done = Countdown(units)
            start()
            for _ in 0..<units { queue.async { done.tick() } }
            done.wait()
            stop()
        },
    ]
}

enum FBLOperations {
    static let queue = DispatchQueue(label: "costs.fbl")

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
    static let queue = DispatchQueue(label: "costs.ay")

    static let all: [Measurement] = [
        Measurement(design: "AY", operation: "pending promise with one then") { units, start, stop in
            let done = Countdown(units)
            var roots: [AYPromise.Pending] = []
            var thens: [AYPromise] = []
            roots.reserveCapacity(units)
            thens.reserveCapacity(units)
            start()
            for _ in 0..<units {
                let root = AYPromise.pending()
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
            let root = AYPromise.pending()
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
            let root = AYPromise.pending()
            for _ in 0..<units { root.promise.thenOn(queue) { (_: PromiseValue) in done.tick() } }
            root.resolve(1)
            done.wait()
            stop()
        },
        Measurement(design: "AY", operation: "all input") { units, start, stop in
            let done = Countdown(1)
            let inputs = (0..<units).map { _ in AYPromise.pending() }
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
    static let queue = DispatchQueue(label: "costs.qx")

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
    static let queue = DispatchQueue(label: "costs.qn")

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
