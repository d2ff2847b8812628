import CompareKit
import Dispatch
import QXPromises

/// QX's operations, written with its own API, and what each may cost.
enum QXOperations {
    static let queue = DispatchQueue(label: "costs.qx")

    static let all: [Measurement] = [
        // Allocations: the pending promise, its resolver's settler, the side table its weak reference
        // needs, and the link, which is itself the observer of the promise's `state` key.
        Measurement(
            design: "QX", operation: "pending promise with one then",
            budget: Budget(allocations: 4, pendingBytes: 457, instructions: 14_505)
        ) { units, start, stop in
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
            queue.holding { for root in roots { root.resolver.fulfill(1) } }
            done.wait()
            withExtendedLifetime(thens) {}
        },
        // Allocations: the link, and its hop to its queue: the hop's closure and GCD's block for it.
        Measurement(
            design: "QX", operation: "chain link",
            budget: Budget(allocations: 3, instructions: 7_065)
        ) { units, start, stop in
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
        // Allocations: the link, its hop, and the growth of the promise's observer array (amortised).
        Measurement(
            design: "QX", operation: "fan-out observer",
            budget: Budget(allocations: 4, instructions: 8_280)
        ) { units, start, stop in
            let done = Countdown(units)
            start()
            let root = QXPromise.pending(on: queue)
            for _ in 0..<units {
                root.promise.then(on: queue) { _ in
                    done.tick()
                    return nil
                }
            }
            queue.holding { root.resolver.fulfill(1) }
            done.wait()
            stop()
        },
        // Allocations: `all`'s handler per input, which hops to the queue when told.
        Measurement(
            design: "QX", operation: "all input",
            budget: Budget(allocations: 3, instructions: 10_121)
        ) { units, start, stop in
            let done = Countdown(1)
            let inputs = (0..<units).map { _ in QXPromise.pending(on: queue) }
            start()
            QXPromise.all(on: queue, inputs.map(\.promise)).then(on: queue) { _ in
                done.tick()
                return nil
            }
            stop()
            queue.holding { for (index, input) in inputs.enumerated() { input.resolver.fulfill(index) } }
            done.wait()
        },
        // Allocations: a public observation: its token and the observer that holds the handler.
        Measurement(
            design: "QX", operation: "key-value observation",
            budget: Budget(allocations: 4, instructions: 15_361)
        ) { units, start, stop in
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
