import CompareKit
import Dispatch
import FloorPrototypes

/// The scenarios for the node variant (the same as `FloorRunner`'s).
enum NodeRunner {
    typealias Promise = NodePromise<Int>

    static func scenarios(_ queues: FloorQueues) -> [Scenario: ScenarioRun] {
        [
            .single: { inputs, _ in try single(inputs, queues, blocks: 1) },
            .single2: { inputs, _ in try single(inputs, queues, blocks: 2) },
            .single3: { inputs, _ in try single(inputs, queues, blocks: 3) },
            .fanOut: { inputs, clock in try fanOut(inputs, clock, queues) },
            .chain: { inputs, clock in try chain(inputs, clock, queues, rejecting: false) },
            .errors: { inputs, clock in try chain(inputs, clock, queues, rejecting: true) },
        ]
    }

    private static func single(_ inputs: Inputs, _ queues: FloorQueues, blocks: Int) throws -> Int {
        let serial = queues.serial
        let done = Countdown(inputs.size)
        for _ in 0..<inputs.size {
            var promise = Promise(1)
            for _ in 0..<blocks - 1 { promise = promise.then(on: serial) { $0 + 1 } }
            promise.then(on: serial) { done.tick($0 + 1) }
        }
        return try done.sum("floor-nodes single")
    }

    private static func fanOut(_ inputs: Inputs, _ clock: PhaseClock, _ queues: FloorQueues) throws -> Int {
        let serial = queues.serial
        let done = Countdown(inputs.size)
        let root = Promise()
        for _ in 0..<inputs.size { root.then(on: serial) { done.tick($0) } }
        clock.markBuilt()
        root.resolve(1)
        return try done.sum("floor-nodes fan-out")
    }

    /// `chain` (the root fulfils) and `errors` (it rejects and every link is skipped).
    private static func chain(
        _ inputs: Inputs, _ clock: PhaseClock, _ queues: FloorQueues, rejecting: Bool
    ) throws -> Int {
        let serial = queues.serial
        let root = Promise()
        var last = root
        for _ in 0..<inputs.size { last = last.then(on: serial) { $0 + 1 } }
        let result = Handoff<Int>()
        last.then(on: serial) { result.put($0) }
            .catch(on: serial) { result.put(($0 as? ChainError)?.code ?? -1) }
        clock.markBuilt()
        if rejecting {
            root.settle(.failure(ChainError(code: Scenario.errorCode)))
        } else {
            root.resolve(0)
        }
        return try result.take("floor-nodes chain")
    }

    static func holdPending(count: Int, meter: AllocationMeter, _ queues: FloorQueues) throws -> () throws -> Void {
        let done = Countdown(count)
        let serial = queues.serial
        var roots: [Promise] = []
        var thens: [NodePromise<Void>] = []
        roots.reserveCapacity(count)
        thens.reserveCapacity(count)
        meter.measure {
            for _ in 0..<count {
                let root = Promise()
                roots.append(root)
                thens.append(root.then(on: serial) { done.tick($0) })
            }
        }
        return { [roots, thens] in
            withExtendedLifetime(thens) {
                for root in roots { root.resolve(1) }
            }
            _ = try done.sum("floor-nodes pending")
        }
    }
}
