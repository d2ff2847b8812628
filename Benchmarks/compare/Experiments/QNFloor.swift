import CompareKit
import Dispatch
import FloorPrototypes

// QN's floor prototype (FloorPrototypes/QNFloorTask.swift) as a `compare` column.

/// The QN floor as a `compare` column (experimental: run only when named with `--design`).
struct QNFloorContender: Contender {
    let info = ContenderInfo(
        name: "Floor-QN", kind: .baseline,
        summary:
            "experiment: QN's contract for a map link at its least (lazy start, three outcomes, cancellation back along a weak link, async callbacks)"
    )

    private let serial = DispatchQueue(label: "compare.qnfloor.serial")
    private let concurrentQueue = DispatchQueue(label: "compare.qnfloor.concurrent", attributes: .concurrent)

    typealias Task = QNFloorTask

    var scenarios: [Scenario: ScenarioRun] {
        [
            .concurrent: concurrent,
            .fanOut: fanOut,
            .chain: { inputs, clock in try chain(inputs, clock, rejecting: false) },
            .errors: { inputs, clock in try chain(inputs, clock, rejecting: true) },
        ]
    }

    private func concurrent(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let done = Countdown(inputs.size)
        let pendings = (0..<inputs.size).map { _ in Task() }
        for pending in pendings {
            pending.map(on: concurrentQueue) { $0 * 2 }.start(on: concurrentQueue) { done.tick(Self.value($0)) }
        }
        clock.markBuilt()
        for (index, pending) in pendings.enumerated() { pending.finish(.succeeded(index)) }
        return try done.sum("QN floor concurrent")
    }

    private func fanOut(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let done = Countdown(inputs.size)
        let root = Task()
        for _ in 0..<inputs.size { root.map(on: serial) { $0 }.start(on: serial) { done.tick(Self.value($0)) } }
        clock.markBuilt()
        root.finish(.succeeded(1))
        return try done.sum("QN floor fan-out")
    }

    private func chain(_ inputs: Inputs, _ clock: PhaseClock, rejecting: Bool) throws -> Int {
        let serial = self.serial
        let root = Task()
        var chain: Task = root
        for _ in 0..<inputs.size { chain = chain.map(on: serial) { $0 + 1 } }
        let result = Handoff<Int>()
        chain.start(on: serial) { outcome in
            switch outcome {
            case .succeeded(let value): result.put(value)
            case .failed(let error): result.put((error as? ChainError)?.code ?? -1)
            case .cancelled: result.put(-1)
            }
        }
        clock.markBuilt()
        root.finish(rejecting ? .failed(ChainError(code: Scenario.errorCode)) : .succeeded(0))
        return try result.take("QN floor chain")
    }

    func holdPending(count: Int, meter: AllocationMeter) throws -> () throws -> Void {
        let done = Countdown(count)
        let serial = self.serial
        var pendings: [Task] = []
        var maps: [QNFloorMap] = []
        pendings.reserveCapacity(count)
        maps.reserveCapacity(count)
        meter.measure {
            for _ in 0..<count {
                let pending = Task()
                let next = pending.map(on: serial) { $0 }
                next.start(on: serial) { done.tick(Self.value($0)) }
                pendings.append(pending)
                maps.append(next)
            }
            serial.sync {}
        }
        return { [pendings, maps] in
            withExtendedLifetime(maps) {
                for pending in pendings { pending.finish(.succeeded(1)) }
            }
            _ = try done.sum("QN floor pending")
        }
    }

    private static func value(_ outcome: QNFloorOutcome) -> Int {
        if case .succeeded(let value) = outcome { return value }
        return -1
    }
}
