import AYPromises
import CompareKit
import Dispatch
import SharedPromiseTypes

/// AY's operations, written with its own API, and what each may cost.
enum AYOperations {
    static let queue = DispatchQueue(label: "costs.ay")

    static let all: [Measurement] = [
        // Allocations: the promise `then` returns and its one handler, which holds the block as written.
        Measurement(
            design: "AY", operation: "pending promise with one then",
            budget: Budget(allocations: 3, pendingBytes: 353, instructions: 10_803)
        ) { units, start, stop in
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
            queue.holding { for root in roots { root.resolve(1) } }
            done.wait()
            withExtendedLifetime(thens) {}
        },
        // Allocations: the above, and GCD's block for the handler's dispatch.
        Measurement(
            design: "AY", operation: "chain link",
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
        Measurement(
            design: "AY", operation: "fan-out observer",
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
        Measurement(
            design: "AY", operation: "all input",
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
