import BatchedPromises
public import CompareKit
public import DesignRegistry
import Dispatch
public import PromiseCosts

/// The project's own design: at most raw GCD's instructions per chain link, per error link and
/// per fan-out observer; below raw GCD and SwiftNIO in time per chain link, per error link and per
/// fan-out observer, at or below raw GCD in every other scenario it runs; below Swift concurrency
/// and the four ported designs on both workflows; below QN and Swift concurrency on cancellation.
extension BatchedAdapter: CostedDesign {
    public static var costOperations: [CountedOperation] { BatchedOperations.all }
    public static var targets: TargetTable.Limits {
        .init(
            ratios: ["chain": 1, "errors": 1, "fan-out": 1, "single": 1, "single-2": 1, "single-3": 1, "all": 1],
            relative: TargetTable.RelativeLimit.on(["chain", "errors", "fan-out"], "NIO", factor: 1)
                .merging(TargetTable.RelativeLimit.on(["cancel"], Design.qn.rawValue, factor: 1)) { first, _ in first },
            bytesPerPending: 96, allocationsPerPending: 1)
    }
}

/// The project's own design's operations, written with its own API, and what each may cost.
enum BatchedOperations {
    static let queue = DispatchQueue(label: "costs.batched")

    static let all: [CountedOperation] = [
        // Allocations (release build, `AllocationCounter`): 2, 200 B asked, 208 B handed out: the pending promise, and the
        // link `map` returns (the promise, its callback and what runs it, in one object). The
        // debug build, which specialises nothing, allocates closure contexts besides.
        .pendingWithOneThen(
            library: "Batched", budget: Budget(allocations: 4, pendingBytes: 384, instructions: 4_577), queue: queue
        ) { done in
            let (root, resolver) = Promise<Int, Never>.makePending()
            return ((promise: root, resolver: resolver), root.map(on: queue) { _ in done.tick() })
        } settle: { root in
            root.resolver.fulfill(1)
        },
        // Allocations (release): 1, the link; its callback joins the drain the link before it runs
        // in. The debug build, which specialises nothing, allocates closure contexts besides.
        CountedOperation(
            library: "Batched", operation: "chain link",
            budget: Budget(allocations: 3, instructions: 1_232)
        ) { units, start, stop in chain(units, start, stop, rejecting: false) },
        // Allocations: as a chain link; the rejection passes every link without running its callback.
        CountedOperation(
            library: "Batched", operation: "error link",
            budget: Budget(allocations: 3, instructions: 1_178)
        ) { units, start, stop in chain(units, start, stop, rejecting: true) },
        // Allocations (release): 1, the link; all the observers of one settle run in one dispatched
        // drain. The debug build, which specialises nothing, allocates a closure context besides.
        CountedOperation(
            library: "Batched", operation: "fan-out observer",
            budget: Budget(allocations: 2, instructions: 1_343)
        ) { units, start, stop in
            let done = Countdown(units)
            start()
            let (root, resolver) = Promise<Int, Never>.makePending()
            for _ in 0..<units { root.then(on: queue) { _ in done.tick() } }
            queue.holding { resolver.fulfill(1) }
            done.wait()
            stop()
        },
        // Allocations: none; cancelling the end of a pending chain walks up it, cancelling each link
        // that no one else waits for (and frees it, as nothing holds it any more).
        CountedOperation(
            library: "Batched", operation: "cancelled link",
            budget: Budget(allocations: 0, instructions: 1_080)
        ) { units, start, stop in
            let (root, resolver) = Promise<Int, Never>.makePending()
            var last = root
            for _ in 0..<units { last = last.map(on: queue) { $0 + 1 } }
            start()
            last.cancel()
            stop()
            withExtendedLifetime(resolver) {}
        },
        // Allocations (debug build): the input, its node, its slot in the race's arrays, and the
        // closure contexts the debug build allocates.
        CountedOperation(
            library: "Batched", operation: "first input", comparedWith: "first input",
            budget: Budget(allocations: 9, instructions: 2_713)
        ) { units, start, stop in firstInputs(units, start, stop) },
        // Allocations (debug build): the promise, its cancellation handler and its closure, the
        // observer, its dispatched block, and the closure contexts the debug build allocates.
        CountedOperation(
            library: "Batched", operation: "cancellation", comparedWith: "cancellation",
            budget: Budget(allocations: 12, instructions: 5_100)
        ) { units, start, stop in cancellations(units, start, stop) },
        // Allocations (release): 1, the input's node, and the aggregate's slot (its arrays,
        // amortised). The debug build, which specialises nothing, allocates closure contexts
        // besides (3 in all since the inputs' array is the promises', not a copy of their storage).
        CountedOperation(
            library: "Batched", operation: "all input",
            budget: Budget(allocations: 3, instructions: 2_656)
        ) { units, start, stop in
            let done = Countdown(1)
            let inputs = (0..<units).map { _ in Promise<Int, Never>.makePending() }
            start()
            Promise.all(inputs.map(\.promise)).whenComplete(on: queue) { _ in done.tick() }
            stop()
            queue.holding { for (index, input) in inputs.enumerated() { input.resolver.fulfill(index) } }
            done.wait()
        },
    ]

    /// The first of `units` inputs raced: each a pending promise; the one at 70 % settles, and the
    /// others, whose only dependent was the race, are cancelled.
    static func firstInputs(_ units: Int, _ start: () -> Void, _ stop: () -> Void) {
        let done = Countdown(1)
        start()
        let inputs = (0..<units).map { _ in Promise<Int, Never>.makePending() }
        Promise.race(inputs.map(\.promise)).whenComplete(on: queue) { _ in done.tick() }
        inputs[units * 7 / 10].resolver.fulfill(1)
        done.wait()
        stop()
    }

    /// `units` pending operations, each a promise whose producer registered a cancellation
    /// handler, observed by a callback; each is cancelled: its handler runs, and the callback
    /// hears of it on its queue.
    static func cancellations(_ units: Int, _ start: () -> Void, _ stop: () -> Void) {
        let done = Countdown(units)
        start()
        let operations = (0..<units).map { _ in
            Promise<Int, Never> { resolver in resolver.onCancel {} }
        }
        for operation in operations { operation.whenComplete(on: queue) { _ in done.tick() } }
        for operation in operations { operation.cancel() }
        done.wait()
        stop()
    }

    /// A chain of `units` links on a pending root that is fulfilled, or rejected (every link then
    /// passes the rejection on without running its callback); the end observed either way.
    static func chain(_ units: Int, _ start: () -> Void, _ stop: () -> Void, rejecting: Bool) {
        let done = Countdown(1)
        start()
        let (root, resolver) = Promise<Int, CostError>.makePending()
        var last = root
        for _ in 0..<units { last = last.map(on: queue) { $0 + 1 } }
        last.whenComplete(on: queue) { _ in done.tick() }
        if rejecting { resolver.reject(CostError()) } else { resolver.fulfill(0) }
        done.wait()
        stop()
    }
}
