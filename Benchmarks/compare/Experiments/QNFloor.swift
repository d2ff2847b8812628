import CompareKit
import Dispatch
import FloorPrototypes

// QN's floor prototypes (FloorPrototypes/QNFloorTask.swift and QNContractFloorTask.swift) as
// `compare` columns: one contender, written once, over what each prototype's API needs.

/// A QN floor prototype as the column sees it: a manual root, `map` links, a start that reports
/// the outcome, and a finish.
protocol QNFloorModel {
    associatedtype Task: AnyObject
    associatedtype Root: AnyObject

    static var name: String { get }
    static var summary: String { get }

    static func makeRoot() -> Root
    static func task(_ root: Root) -> Task
    static func map(_ task: Task, on queue: DispatchQueue, _ transform: @escaping @Sendable (Int) -> Int) -> Task
    /// Starts `task` and ticks `done` with its value, the code of the `ChainError` it failed with,
    /// or -1; ``start(_:on:into:)`` puts the same into `result`. Written per prototype, not as a
    /// closure of the generic column: that closure would capture the model's metadata and
    /// allocate a context, which the memory measured would count.
    static func start(_ task: Task, on queue: DispatchQueue, ticking done: Countdown)
    static func start(_ task: Task, on queue: DispatchQueue, into result: Handoff<Int>)
    /// Succeeds with `value`, or fails with `error`.
    static func finish(_ root: Root, value: Int, error: (any Error)?)
}

/// `Floor-QN`: QN's contract for a map link at its least.
enum QNFloorTaskModel: QNFloorModel {
    static let name = "Floor-QN"
    static let summary =
        "experiment: QN's contract for a map link at its least (lazy start, three outcomes, cancellation back along a weak link, async callbacks)"

    static func makeRoot() -> QNFloorTask { QNFloorTask() }
    static func task(_ root: QNFloorTask) -> QNFloorTask { root }
    static func map(
        _ task: QNFloorTask, on queue: DispatchQueue, _ transform: @escaping @Sendable (Int) -> Int
    )
        -> QNFloorTask
    { task.map(on: queue, transform) }
    static func start(_ task: QNFloorTask, on queue: DispatchQueue, ticking done: Countdown) {
        task.start(on: queue) { done.tick(report($0)) }
    }
    static func start(_ task: QNFloorTask, on queue: DispatchQueue, into result: Handoff<Int>) {
        task.start(on: queue) { result.put(report($0)) }
    }
    private static func report(_ outcome: QNFloorOutcome) -> Int {
        switch outcome {
        case .succeeded(let value): value
        case .failed(let error): (error as? ChainError)?.code ?? -1
        case .cancelled: -1
        }
    }
    static func finish(_ root: QNFloorTask, value: Int, error: (any Error)?) {
        root.finish(error.map { .failed($0) } ?? .succeeded(value))
    }
}

/// `Floor-QN+contract`: the same link storing what QN's contract keeps (its memory is QN's).
enum QNContractFloorModel: QNFloorModel {
    static let name = "Floor-QN+contract"
    static let summary =
        "experiment: Floor-QN storing what QN's contract keeps (erased outcome, out-of-line state, observer queues, start block, then-adoption)"

    static func makeRoot() -> QNContractFloorManual { QNContractFloorManual() }
    static func task(_ root: QNContractFloorManual) -> QNContractFloorTask { root }
    static func map(
        _ task: QNContractFloorTask, on queue: DispatchQueue, _ transform: @escaping @Sendable (Int) -> Int
    ) -> QNContractFloorTask { task.map(on: queue, transform) }
    // The typed callback, as QN's: the prototype's wrapper casts the erased value back.
    static func start(_ task: QNContractFloorTask, on queue: DispatchQueue, ticking done: Countdown) {
        task.start(on: queue) { (outcome: Result<Int, any Error>?) in done.tick(report(outcome)) }
    }
    static func start(_ task: QNContractFloorTask, on queue: DispatchQueue, into result: Handoff<Int>) {
        task.start(on: queue) { (outcome: Result<Int, any Error>?) in result.put(report(outcome)) }
    }
    private static func report(_ outcome: Result<Int, any Error>?) -> Int {
        switch outcome {
        case .success(let value): value
        case .failure(let error): (error as? ChainError)?.code ?? -1
        case nil: -1
        }
    }
    static func finish(_ root: QNContractFloorManual, value: Int, error: (any Error)?) {
        root.finish(error.map { .failed($0) } ?? .succeeded(value))
    }
}

/// A QN floor as a `compare` column (experimental: run only when named with `--design`).
struct QNFloorContender<Model: QNFloorModel>: Contender {
    let info = ContenderInfo(name: Model.name, kind: .baseline, summary: Model.summary)

    private let serial = DispatchQueue(label: "compare.qnfloor.serial")
    private let concurrentQueue = DispatchQueue(label: "compare.qnfloor.concurrent", attributes: .concurrent)

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
        let roots = (0..<inputs.size).map { _ in Model.makeRoot() }
        for root in roots {
            let next = Model.map(Model.task(root), on: concurrentQueue) { $0 * 2 }
            Model.start(next, on: concurrentQueue, ticking: done)
        }
        clock.markBuilt()
        for (index, root) in roots.enumerated() { Model.finish(root, value: index, error: nil) }
        return try done.sum("\(Model.name) concurrent")
    }

    private func fanOut(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let done = Countdown(inputs.size)
        let root = Model.makeRoot()
        for _ in 0..<inputs.size {
            Model.start(Model.map(Model.task(root), on: serial) { $0 }, on: serial, ticking: done)
        }
        clock.markBuilt()
        Model.finish(root, value: 1, error: nil)
        return try done.sum("\(Model.name) fan-out")
    }

    private func chain(_ inputs: Inputs, _ clock: PhaseClock, rejecting: Bool) throws -> Int {
        let root = Model.makeRoot()
        var chain = Model.task(root)
        for _ in 0..<inputs.size { chain = Model.map(chain, on: serial) { $0 + 1 } }
        let result = Handoff<Int>()
        Model.start(chain, on: serial, into: result)
        clock.markBuilt()
        Model.finish(root, value: 0, error: rejecting ? ChainError(code: Scenario.errorCode) : nil)
        return try result.take("\(Model.name) chain")
    }

    func holdPending(count: Int, meter: AllocationMeter) throws -> () throws -> Void {
        let done = Countdown(count)
        let serial = self.serial
        var roots: [Model.Root] = []
        var maps: [Model.Task] = []
        roots.reserveCapacity(count)
        maps.reserveCapacity(count)
        meter.measure {
            for _ in 0..<count {
                let root = Model.makeRoot()
                let next = Model.map(Model.task(root), on: serial) { $0 }
                Model.start(next, on: serial, ticking: done)
                roots.append(root)
                maps.append(next)
            }
            serial.sync {}
        }
        return { [roots, maps] in
            withExtendedLifetime(maps) {
                for root in roots { Model.finish(root, value: 1, error: nil) }
            }
            _ = try done.sum("\(Model.name) pending")
        }
    }
}
