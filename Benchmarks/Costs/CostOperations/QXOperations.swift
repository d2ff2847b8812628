public import CompareKit
public import DesignRegistry
import Dispatch
public import PromiseCosts
import QXPromises

/// QX: at most twice FBL's ratio on single, chain, fan-out and error propagation; 384 bytes and 6
/// allocations per pending promise with one `then`.
extension QXAdapter: CostedDesign {
    public static var costOperations: [CountedOperation] { QXOperations.all }
    public static var targets: TargetTable.Limits {
        .init(
            relative: TargetTable.RelativeLimit.on(
                ["single", "chain", "fan-out", "errors"], Design.fbl.rawValue, factor: 2),
            bytesPerPending: 384, allocationsPerPending: 6)
    }
}

/// QX's operations, written with its own API, and what each may cost.
enum QXOperations {
    static let queue = DispatchQueue(label: "costs.qx")

    static let all: [CountedOperation] = [
        // Allocations: the pending promise, its resolver's settler, the side table its weak reference
        // needs, and the link, which is itself the observer of the promise's `state` key.
        .pendingWithOneThen(
            library: "QX", budget: Budget(allocations: 4, pendingBytes: 457, instructions: 14_505), queue: queue
        ) { done in
            let root = QXPromise.pending(on: queue)
            let then = root.promise.then(on: queue) { _ in
                done.tick()
                return nil
            }
            return (root, then)
        } settle: { root in
            root.resolver.fulfill(1)
        },
        // Allocations: the link, and its hop to its queue: the hop's closure and GCD's block for it.
        CountedOperation(
            library: "QX", operation: "chain link",
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
        CountedOperation(
            library: "QX", operation: "fan-out observer",
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
        CountedOperation(
            library: "QX", operation: "all input",
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
        CountedOperation(
            library: "QX", operation: "key-value observation",
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
