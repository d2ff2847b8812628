import CompareKit
import Dispatch
import FBLPromises

/// FBL's operations, written with its own API, and what each may cost.
enum FBLOperations {
    static let queue = DispatchQueue(label: "costs.fbl")

    static let all: [Measurement] = [
        // Allocations: the pending promise, and the promise `then` returns, which holds the callback and is its own observer's
        // context (`FBLChainedPromise`).
        Measurement(
            design: "FBL", operation: "pending promise with one then",
            budget: Budget(allocations: 2, pendingBytes: 281, instructions: 8_401)
        ) { units, start, stop in
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
            queue.holding { for root in roots { root.fulfill(1) } }
            done.wait()
            withExtendedLifetime(thens) {}
        },
        // Allocations: the above, and GCD's closure and block for the callback.
        Measurement(
            design: "FBL", operation: "chain link",
            budget: Budget(allocations: 3, instructions: 4_547)
        ) { units, start, stop in chain(units, start, stop, rejecting: false) },
        // Allocations: as a chain link; the rejection passes every link without running its block.
        Measurement(
            design: "FBL", operation: "error link",
            budget: Budget(allocations: 3, instructions: 4_684)
        ) { units, start, stop in chain(units, start, stop, rejecting: true) },
        // Allocations: the link, its hop, and its observer's slot in the list (the array grows, amortised).
        Measurement(
            design: "FBL", operation: "fan-out observer",
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
        Measurement(
            design: "FBL", operation: "all input",
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
