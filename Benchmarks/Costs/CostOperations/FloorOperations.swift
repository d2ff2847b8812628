import CompareKit
import Dispatch
import FloorPrototypes
import PromiseCosts

/// The floors by experiment (`FloorPrototypes`), counted as the designs are, so that a design's
/// distance from the floor of its contract is an exact ratio (Reports/performance.md). Not designs:
/// no allocation budget, only the instructions, so that a change to a prototype shows.
enum FloorOperations {
    static let queue = DispatchQueue(label: "costs.floor")

    static let all: [CountedOperation] = [
        // FBL's contract with observers that allocate nothing: the floor of FBL's chain link.
        CountedOperation(
            library: "Floor-nodes", operation: "chain link",
            budget: Budget(instructions: 4_386)
        ) { units, start, stop in nodeChain(units, start, stop, rejecting: false) },
        CountedOperation(
            library: "Floor-nodes", operation: "error link",
            budget: Budget(instructions: 4_490)
        ) { units, start, stop in nodeChain(units, start, stop, rejecting: true) },
        // QN's contract for a `map` link at its least: the floor of QN's map link.
        CountedOperation(
            library: "Floor-QN", operation: "map link", comparedWith: "chain link",
            budget: Budget(instructions: 5_065)
        ) { units, start, stop in taskChain(units, start, stop, rejecting: false) },
        CountedOperation(
            library: "Floor-QN", operation: "error link",
            budget: Budget(instructions: 5_136)
        ) { units, start, stop in taskChain(units, start, stop, rejecting: true) },
        // The same floor storing what QN's contract keeps (its memory is QN's): what that storage
        // costs in instructions.
        CountedOperation(
            library: "Floor-QN+contract", operation: "map link", comparedWith: "chain link",
            budget: Budget(instructions: 5_381)
        ) { units, start, stop in contractTaskChain(units, start, stop, rejecting: false) },
        CountedOperation(
            library: "Floor-QN+contract", operation: "error link",
            budget: Budget(instructions: 5_138)
        ) { units, start, stop in contractTaskChain(units, start, stop, rejecting: true) },
    ]

    /// A chain of `units` links on a pending `NodePromise` that is fulfilled or rejected, as FBL's.
    static func nodeChain(_ units: Int, _ start: () -> Void, _ stop: () -> Void, rejecting: Bool) {
        let done = Countdown(1)
        start()
        let root = NodePromise<Int>()
        var last = root
        for _ in 0..<units { last = last.then(on: queue) { $0 + 1 } }
        last.then(on: queue) { _ in done.tick() }.catch(on: queue) { _ in done.tick() }
        if rejecting { root.settle(.failure(CostError())) } else { root.resolve(0) }
        done.wait()
        stop()
    }

    /// A chain of `units` maps on a `QNFloorTask` that succeeds or fails, as QN's.
    static func taskChain(_ units: Int, _ start: () -> Void, _ stop: () -> Void, rejecting: Bool) {
        let done = Countdown(1)
        start()
        let root = QNFloorTask()
        var last = root
        for _ in 0..<units { last = last.map(on: queue) { $0 + 1 } }
        last.start(on: queue) { _ in done.tick() }
        root.finish(rejecting ? .failed(CostError()) : .succeeded(0))
        done.wait()
        stop()
    }

    /// A chain of `units` maps on a `QNContractFloorManual` that succeeds or fails, as QN's.
    static func contractTaskChain(_ units: Int, _ start: () -> Void, _ stop: () -> Void, rejecting: Bool) {
        let done = Countdown(1)
        start()
        let root = QNContractFloorManual()
        var last: QNContractFloorTask = root
        for _ in 0..<units { last = last.map(on: queue) { $0 + 1 } }
        last.start(on: queue) { (_: Result<Int, any Error>?) in done.tick() }
        root.finish(rejecting ? .failed(CostError()) : .succeeded(0))
        done.wait()
        stop()
    }
}
