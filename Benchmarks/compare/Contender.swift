import CompareKit
import DesignRegistry
import Dispatch

/// One implementation measured by `compare`: a baseline, a peer or one of the designs.
///
/// A contender runs each scenario through its own native API, written the way its users would
/// write it: one method per scenario, called once on the inputs from the benchmark thread, which
/// returns its checksum once the whole run has finished (it blocks until then). A run that has a
/// phase it must not be timed for tells the clock (``PhaseClock``). A scenario a contender has no
/// operation for (`first` needs a race, `cancel` cancellation) it leaves out and sits out: the
/// default throws ``SitsOut`` before doing anything, and the report says so in its cell.
///
/// Adding a contender: a file in `Contenders/` and, for a peer, its place in ``allContenders``; a
/// design's is found through its adapter (``ContendingDesign``).
protocol Contender: Sendable {
    var info: ContenderInfo { get }

    /// N operations, each a promise made already resolved plus `blocks` chained blocks.
    func single(_ inputs: Inputs, blocks: Int) throws -> Int
    func concurrent(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int
    func fanOut(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int
    /// `chain` (the root fulfils) and `errors` (it rejects and every link passes it on).
    func chain(_ inputs: Inputs, _ clock: PhaseClock, rejecting: Bool) throws -> Int
    func all(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int
    func first(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int
    func workflow(_ inputs: Inputs) throws -> Int
    func checkout(_ inputs: Inputs) throws -> Int
    func cancel(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int
    /// A chain of `inputs.size` links on `queue` while `probe` dispatches plain blocks onto it:
    /// returns the chain's checksum (its length).
    func fairness(_ inputs: Inputs, on queue: DispatchQueue, _ clock: PhaseClock) throws -> Int

    /// Makes `count` pending promises with one `then` each, inside `meter.measure` (the arrays
    /// that hold them are reserved outside it), and returns a function that settles them all and
    /// waits for the callbacks.
    func holdPending(count: Int, meter: AllocationMeter) throws -> () throws -> Void
}

/// What a contender's scenario method throws when the contender has no such operation.
struct SitsOut: Error {}

extension Contender {
    func single(_ inputs: Inputs, blocks: Int) throws -> Int { throw SitsOut() }
    func concurrent(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int { throw SitsOut() }
    func fanOut(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int { throw SitsOut() }
    func chain(_ inputs: Inputs, _ clock: PhaseClock, rejecting: Bool) throws -> Int { throw SitsOut() }
    func all(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int { throw SitsOut() }
    func first(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int { throw SitsOut() }
    func workflow(_ inputs: Inputs) throws -> Int { throw SitsOut() }
    func checkout(_ inputs: Inputs) throws -> Int { throw SitsOut() }
    func cancel(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int { throw SitsOut() }
    func fairness(_ inputs: Inputs, on queue: DispatchQueue, _ clock: PhaseClock) throws -> Int { throw SitsOut() }
}

extension Scenario {
    /// Runs the scenario once on `contender`.
    func run(on contender: any Contender, _ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        switch self {
        case .single: return try contender.single(inputs, blocks: 1)
        case .single2: return try contender.single(inputs, blocks: 2)
        case .single3: return try contender.single(inputs, blocks: 3)
        case .concurrent: return try contender.concurrent(inputs, clock)
        case .fanOut: return try contender.fanOut(inputs, clock)
        case .chain: return try contender.chain(inputs, clock, rejecting: false)
        case .errors: return try contender.chain(inputs, clock, rejecting: true)
        case .all: return try contender.all(inputs, clock)
        case .first: return try contender.first(inputs, clock)
        case .workflow: return try contender.workflow(inputs)
        case .checkout: return try contender.checkout(inputs)
        case .cancel: return try contender.cancel(inputs, clock)
        case .fairness:
            // The chain on a serial queue, then on the main queue, each with plain blocks
            // dispatched onto its queue meanwhile; the longest waits are the cell's metrics.
            var sum = 0
            for (queue, metric) in [(Fairness.serial, "waitSerialMs"), (DispatchQueue.main, "waitMainMs")] {
                let probe = ForeignBlocks(onto: queue)
                sum += try contender.fairness(inputs, on: queue, clock)
                clock.record(metric, probe.stop(countingBlocksSentFrom: clock.builtAt))
            }
            return sum
        }
    }
}

/// The queues of a contender's scenarios, its own, named after it: a serial queue for callbacks,
/// a concurrent one for `concurrent`, and a concurrent I/O queue for the workflows' simulated
/// service calls.
struct ContenderQueues: Sendable {
    let serial: DispatchQueue
    let concurrent: DispatchQueue
    let io: DispatchQueue

    init(_ name: String) {
        serial = DispatchQueue(label: "compare.\(name).serial")
        concurrent = DispatchQueue(label: "compare.\(name).concurrent", attributes: .concurrent)
        io = DispatchQueue(label: "compare.\(name).io", attributes: .concurrent)
    }
}

/// A contender whose scenarios run on queues of its own.
protocol HasQueues {
    var queues: ContenderQueues { get }
}

extension HasQueues {
    var serial: DispatchQueue { queues.serial }
    var concurrentQueue: DispatchQueue { queues.concurrent }
    var io: DispatchQueue { queues.io }
}

/// A registered design's contender, stated in the design's file in `Contenders/` as a conformance
/// of its adapter, so that the tool needs no list of designs: ``allContenders`` finds every
/// design's through ``Design``. A design registered without one is refused before anything runs
/// (``missingContenders``).
protocol ContendingDesign: RegisteredAdapter {
    static var contender: any Contender { get }
}

/// Every contender, in the column order of the report: floors, peers, then every registered
/// design, in `Design` order.
let allContenders: [any Contender] =
    [DirectContender(), GCDContender(), SwiftConcurrencyContender(), NIOContender(), CombineContender()]
    + Design.allCases.compactMap { ($0.adapter as? any ContendingDesign.Type)?.contender }

/// The registered designs that have no contender: each needs `Contenders/<Name>.swift`.
let missingContenders = Design.allCases.filter { !($0.adapter is any ContendingDesign.Type) }
