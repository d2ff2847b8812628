import CompareKit
import Dispatch
import FloorPrototypes

// QN's floor with the storage of QN's contract (FloorPrototypes/QNContractFloorTask.swift) as a
// `compare` column: its memory per pending task with one map against QN's and the floor's.

/// The contract floor as a `compare` column (experimental: run only when named with `--design`).
struct QNContractFloorContender: Contender {
    let info = ContenderInfo(
        name: "Floor-QN+contract", kind: .baseline,
        summary:
            "experiment: Floor-QN storing what QN's contract keeps (erased outcome, out-of-line state, observer queues, start block, then-adoption)"
    )

    private let serial = DispatchQueue(label: "compare.qncontractfloor.serial")

    typealias Task = QNContractFloorManual

    var scenarios: [Scenario: ScenarioRun] {
        [
            .chain: { inputs, clock in try chain(inputs, clock, rejecting: false) },
            .errors: { inputs, clock in try chain(inputs, clock, rejecting: true) },
        ]
    }

    private func chain(_ inputs: Inputs, _ clock: PhaseClock, rejecting: Bool) throws -> Int {
        let serial = self.serial
        let root = Task()
        var chain: QNContractFloorTask = root
        for _ in 0..<inputs.size { chain = chain.map(on: serial) { $0 + 1 } }
        let result = Handoff<Int>()
        chain.start(on: serial) { (outcome: Result<Int, any Error>?) in
            switch outcome {
            case .success(let value): result.put(value)
            case .failure(let error): result.put((error as? ChainError)?.code ?? -1)
            case nil: result.put(-1)
            }
        }
        clock.markBuilt()
        root.finish(rejecting ? .failed(ChainError(code: Scenario.errorCode)) : .succeeded(0))
        return try result.take("QN contract floor chain")
    }

    func holdPending(count: Int, meter: AllocationMeter) throws -> () throws -> Void {
        let done = Countdown(count)
        let serial = self.serial
        var pendings: [Task] = []
        var maps: [QNContractFloorLink] = []
        pendings.reserveCapacity(count)
        maps.reserveCapacity(count)
        meter.measure {
            for _ in 0..<count {
                let pending = Task()
                let next = pending.map(on: serial) { $0 }
                next.start(on: serial) { (outcome: Result<Int, any Error>?) in done.tick((try? outcome?.get()) ?? -1) }
                pendings.append(pending)
                maps.append(next)
            }
            serial.sync {}
        }
        return { [pendings, maps] in
            withExtendedLifetime(maps) {
                for pending in pendings { pending.finish(.succeeded(1)) }
            }
            _ = try done.sum("QN contract floor pending")
        }
    }
}
