import CompareKit
import Dispatch
import FloorPrototypes
import Foundation
import PromiseRuntime
import SharedPromiseTypes

// An experiment, not a design: the least a promise can do and still keep FBL's contract, to find
// FBL's floor by measurement instead of by argument (Reports/performance.md, "FBL's floor").
//
// The contract kept by the full variant:
// - every callback runs asynchronously on the queue it was given, never on the settling stack;
// - every pending promise and every dispatched callback is counted in one process-wide dispatch
//   group (what `waitForPromises` waits on);
// - the first settle wins;
// - a callback that returns a promise of the same kind is adopted;
// - an error value rejects (google's current rule: a value whose dynamic type is an `NSError`).
//
// What it leaves out of FBL: the `Resolution` enum and `Result {}` wrapping of `chain`, the
// assimilation of foreign thenables (checked only when the value's dynamic type differs from
// `Value`, which for a struct it never does), the debug leak tracker, the adoption-cycle walk,
// `mayBePending`, ordered hand-out under a concurrent settle. The variants switch parts of the
// contract off to price them: `Floor+casts` checks every value with the per-value casts FBL used
// (`as? any Error`, `as? any Thenable`); `Floor-bare` has no dispatch group and no checks at all.
// `Floor+weak` prices a part of QN's contract instead: the promise a `then` returns refers back
// to the promise it observes weakly, as a QN continuation refers to its source (cancellation goes
// back along that link, and a strong one would keep a dropped chain alive in a cycle). Forming the
// reference gives the observed promise a side table, and every retain and release of it then
// takes the runtime's slow path (Reports/performance.md, "A non-generic core").
//
// Run: swift run -c release compare --scenario chain --scenario fan-out --scenario all --design FBL --design Floor \
//     --design Floor+casts --design Floor-bare --skip-conformance --output /tmp/floor
// and for the weak link back: --scenario chain --scenario errors --design FBL --design QN --design Floor \
//     --design Floor+weak --skip-conformance --output /tmp/floor

/// What a variant keeps of the contract; resolved at compile time (the class is specialised).
protocol FloorPolicy: Sendable {
    /// Counts pending promises and callbacks in the process-wide group.
    static var usesGroup: Bool { get }
    /// Checks each value for a promise to adopt and an error to reject with.
    static var checksValues: Bool { get }
    /// Checks with FBL's per-value casts instead of deciding by the value's type.
    static var castsEveryValue: Bool { get }
    /// Makes the promise a `then` returns refer back to its source weakly (QN's link back).
    static var keepsWeakSource: Bool { get }
}

extension FloorPolicy {
    static var keepsWeakSource: Bool { false }
}

enum FloorWithWeakSource: FloorPolicy {
    static var usesGroup: Bool { true }
    static var checksValues: Bool { true }
    static var castsEveryValue: Bool { false }
    static var keepsWeakSource: Bool { true }
}

enum FloorContract: FloorPolicy {
    static var usesGroup: Bool { true }
    static var checksValues: Bool { true }
    static var castsEveryValue: Bool { false }
}

enum FloorWithCasts: FloorPolicy {
    static var usesGroup: Bool { true }
    static var checksValues: Bool { true }
    static var castsEveryValue: Bool { true }
}

enum FloorBare: FloorPolicy {
    static var usesGroup: Bool { false }
    static var checksValues: Bool { false }
    static var castsEveryValue: Bool { false }
}

/// A minimal promise keeping the contract of its policy.
final class FloorPromise<Value: Sendable, Policy: FloorPolicy>: Sendable {
    typealias Observer = @Sendable (Result<Value, any Error>) -> Void

    /// Observers in registration order, the first inline.
    struct Observers {
        var first: Observer?
        var rest: [Observer] = []
    }

    struct State {
        var result: Result<Value, any Error>?
        var observers = Observers()
    }

    /// Guards the outcome and the observers.
    let state: PromiseMutex<State>
    /// The promise this one observes, for `Floor+weak` only (never read: what it costs is forming
    /// it, and the slow reference counting it gives the source).
    weak let source: (any AnyObject & Sendable)?

    init(source: (any AnyObject & Sendable)? = nil) {
        state = PromiseMutex(State())
        self.source = source
        if Policy.usesGroup { floorGroup.enter() }
    }

    init(_ value: Value) {
        state = PromiseMutex(State(result: .success(value)))
        source = nil
    }

    func settle(_ result: Result<Value, any Error>) {
        // The observers leave the lock in their struct: a tuple of closures would be re-abstracted
        // on the way out, two allocations per settle (seen in a malloc profile).
        let taken: Observers? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.observers = Observers() }
            return state.observers
        }
        guard let taken else { return }
        if let first = taken.first {
            first(result)
            for observer in taken.rest { observer(result) }
        }
        if Policy.usesGroup { floorGroup.leave() }
    }

    func reject(_ error: any Error) { settle(.failure(error)) }

    /// The resolution procedure.
    func resolve(_ value: Value) {
        guard Policy.checksValues else { return settle(.success(value)) }
        if Policy.castsEveryValue {
            if let promise = value as? FloorPromise<Value, Policy> { return adopt(promise) }
            if value is any Thenable { return settle(.failure(CancellationError())) }  // not exercised
            if let error = value as? any Error { return settle(.failure(error)) }
            return settle(.success(value))
        }
        // A value whose dynamic type is `Value` itself (always, for a struct) can be neither a
        // promise of this kind nor an `NSError` unless `Value` is: decided by the type, which the
        // optimiser folds for a concrete `Value`.
        if type(of: value) == Value.self {
            if Value.self is FloorPromise<Value, Policy>.Type, let promise = value as? FloorPromise<Value, Policy> {
                return adopt(promise)
            }
            if Value.self is NSError.Type, let error = value as? NSError { return settle(.failure(error)) }
            return settle(.success(value))
        }
        if let promise = value as? FloorPromise<Value, Policy> { return adopt(promise) }
        if type(of: value) is NSError.Type, let error = value as? NSError { return settle(.failure(error)) }
        settle(.success(value))
    }

    func adopt(_ promise: FloorPromise<Value, Policy>) {
        promise.observe { result in self.settle(result) }
    }

    func observe(_ observer: @escaping Observer) {
        let now: Result<Value, any Error>? = state.withLock { state in
            if let result = state.result { return result }
            if state.observers.first == nil {
                state.observers.first = observer
            } else {
                state.observers.rest.append(observer)
            }
            return nil
        }
        if let now { observer(now) }
    }

    @discardableResult
    func then<Next: Sendable>(
        on queue: DispatchQueue, _ work: @escaping @Sendable (Value) -> Next
    ) -> FloorPromise<Next, Policy> {
        let next = FloorPromise<Next, Policy>(source: Policy.keepsWeakSource ? self : nil)
        // Closure literals passed straight to `async`: a closure held in a variable first costs a
        // reabstraction context per dispatch (measured: 6 allocations per link instead of 4).
        observe { result in
            if Policy.usesGroup {
                queue.async(group: floorGroup) {
                    switch result {
                    case .success(let value): next.resolve(work(value))
                    case .failure(let error): next.reject(error)
                    }
                }
            } else {
                queue.async {
                    switch result {
                    case .success(let value): next.resolve(work(value))
                    case .failure(let error): next.reject(error)
                    }
                }
            }
        }
        return next
    }

    /// Calls `body` with the outcome, asynchronously on `queue` and counted in the group: what
    /// FBL's `observe(on:fulfill:reject:)` does for each input of `all`.
    func observe(on queue: DispatchQueue, _ body: @escaping @Sendable (Result<Value, any Error>) -> Void) {
        observe { result in
            if Policy.usesGroup {
                queue.async(group: floorGroup) { body(result) }
            } else {
                queue.async { body(result) }
            }
        }
    }

    @discardableResult
    func `catch`(
        on queue: DispatchQueue, _ handler: @escaping @Sendable (any Error) -> Void
    ) -> FloorPromise<Value, Policy> {
        let next = FloorPromise<Value, Policy>()
        observe { result in
            queue.async(group: floorGroup) {
                switch result {
                case .success(let value): next.resolve(value)
                case .failure(let error):
                    handler(error)
                    next.reject(error)
                }
            }
        }
        return next
    }
}

/// `all` at the floor: one observation per input, each delivered on `queue`; the values are
/// collected under one lock, and the last input to arrive settles the combined promise.
func floorAll<Value: Sendable, Policy: FloorPolicy>(
    on queue: DispatchQueue, _ inputs: [FloorPromise<Value, Policy>]
) -> FloorPromise<[Value], Policy> {
    let combined = FloorPromise<[Value], Policy>()
    let slots = PromiseMutex((values: [Value?](repeating: nil, count: inputs.count), missing: inputs.count))
    for (index, input) in inputs.enumerated() {
        input.observe(on: queue) { result in
            switch result {
            case .success(let value):
                let values: [Value]? = slots.withLock { slots in
                    slots.values[index] = value
                    slots.missing -= 1
                    return slots.missing == 0 ? slots.values.map { $0! } : nil
                }
                if let values { combined.resolve(values) }
            case .failure(let error):
                combined.reject(error)
            }
        }
    }
    return combined
}

/// The floor prototype as a `compare` column (experimental: run only when named with `--design`).
///
/// Not generic itself: a generic contender is called through its protocol witness unspecialised,
/// and would measure the generic runtime instead of the prototype (it did: 6 allocations per link
/// instead of 3). Each variant takes its scenarios from `FloorRunner` with its concrete policy,
/// which the optimiser specialises.
struct FloorContender: Contender {
    enum Variant { case contract, withCasts, bare, nodes, weakSource }

    let info: ContenderInfo
    let variant: Variant
    private let queues = FloorQueues()

    init(_ variant: Variant, name: String, summary: String) {
        self.variant = variant
        info = ContenderInfo(name: name, kind: .baseline, summary: summary)
    }

    var scenarios: [Scenario: ScenarioRun] {
        switch variant {
        case .contract: FloorRunner<FloorContract>.scenarios(queues)
        case .withCasts: FloorRunner<FloorWithCasts>.scenarios(queues)
        case .bare: FloorRunner<FloorBare>.scenarios(queues)
        case .nodes: NodeRunner.scenarios(queues)
        case .weakSource: FloorRunner<FloorWithWeakSource>.scenarios(queues)
        }
    }

    func holdPending(count: Int, meter: AllocationMeter) throws -> () throws -> Void {
        switch variant {
        case .contract: try FloorRunner<FloorContract>.holdPending(count: count, meter: meter, queues)
        case .withCasts: try FloorRunner<FloorWithCasts>.holdPending(count: count, meter: meter, queues)
        case .bare: try FloorRunner<FloorBare>.holdPending(count: count, meter: meter, queues)
        case .nodes: try NodeRunner.holdPending(count: count, meter: meter, queues)
        case .weakSource: try FloorRunner<FloorWithWeakSource>.holdPending(count: count, meter: meter, queues)
        }
    }
}

struct FloorQueues: Sendable {
    let serial = DispatchQueue(label: "compare.floor.serial")
    let concurrent = DispatchQueue(label: "compare.floor.concurrent", attributes: .concurrent)
}

/// The scenarios for one variant, specialised per policy.
enum FloorRunner<Policy: FloorPolicy> {
    typealias Promise = FloorPromise<Int, Policy>

    static func scenarios(_ queues: FloorQueues) -> [Scenario: ScenarioRun] {
        [
            .single: { inputs, _ in try single(inputs, queues, blocks: 1) },
            .single2: { inputs, _ in try single(inputs, queues, blocks: 2) },
            .single3: { inputs, _ in try single(inputs, queues, blocks: 3) },
            .concurrent: { inputs, clock in try concurrent(inputs, clock, queues) },
            .fanOut: { inputs, clock in try fanOut(inputs, clock, queues) },
            .chain: { inputs, clock in try chain(inputs, clock, queues, rejecting: false) },
            .errors: { inputs, clock in try chain(inputs, clock, queues, rejecting: true) },
            .all: { inputs, clock in try all(inputs, clock, queues) },
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
        return try done.sum("floor single")
    }

    private static func concurrent(_ inputs: Inputs, _ clock: PhaseClock, _ queues: FloorQueues) throws -> Int {
        let done = Countdown(inputs.size)
        let promises = (0..<inputs.size).map { _ in Promise() }
        for promise in promises { promise.then(on: queues.concurrent) { done.tick($0 * 2) } }
        clock.markBuilt()
        for (index, promise) in promises.enumerated() { promise.resolve(index) }
        return try done.sum("floor concurrent")
    }

    private static func fanOut(_ inputs: Inputs, _ clock: PhaseClock, _ queues: FloorQueues) throws -> Int {
        let serial = queues.serial
        let done = Countdown(inputs.size)
        let root = Promise()
        for _ in 0..<inputs.size { root.then(on: serial) { done.tick($0) } }
        clock.markBuilt()
        root.resolve(1)
        return try done.sum("floor fan-out")
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
        if rejecting { root.reject(ChainError(code: Scenario.errorCode)) } else { root.resolve(0) }
        return try result.take("floor chain")
    }

    private static func all(_ inputs: Inputs, _ clock: PhaseClock, _ queues: FloorQueues) throws -> Int {
        let n = inputs.size
        let serial = queues.serial
        let promises = (0..<n).map { _ in Promise() }
        let result = Handoff<Int>()
        floorAll(on: serial, promises).then(on: serial) { values in
            result.put(values.enumerated().allSatisfy { $0.offset == $0.element } ? n : -1)
        }
        clock.markBuilt()
        for index in inputs.order { promises[index].resolve(index) }
        return try result.take("floor all")
    }

    static func holdPending(count: Int, meter: AllocationMeter, _ queues: FloorQueues) throws -> () throws -> Void {
        let done = Countdown(count)
        let serial = queues.serial
        var roots: [Promise] = []
        var thens: [FloorPromise<Void, Policy>] = []
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
            _ = try done.sum("floor pending")
        }
    }
}

/// Columns that run only when named (`--design Floor`): experiments, not part of the report.
let experimentalContenders: [any Contender] = [
    FloorContender(
        .contract, name: "Floor",
        summary:
            "experiment: FBL's contract at its least (group, async callbacks, first settle wins, adoption, NSError rejects)"
    ),
    FloorContender(
        .withCasts, name: "Floor+casts",
        summary: "experiment: the floor checking every value with FBL's per-value casts"
    ),
    FloorContender(
        .bare, name: "Floor-bare",
        summary: "experiment: lock, observers and async callbacks only (no group, no checks)"
    ),
    FloorContender(
        .nodes, name: "Floor-nodes",
        summary: "experiment: the floor whose then-promise holds its queue and block, so its observer allocates nothing"
    ),
    FloorContender(
        .weakSource, name: "Floor+weak",
        summary: "experiment: the floor whose then-promise refers back to its source weakly, as a QN link does"
    ),
    QNFloorContender<QNFloorTaskModel>(),
    QNFloorContender<QNContractFloorModel>(),
]
