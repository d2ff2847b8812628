import CompareKit

/// One implementation measured by `compare`: a baseline, a peer or one of the designs.
///
/// A contender runs each scenario through its own native API, written the way its users would
/// write it. Adding a design to the benchmark means one file in `Contenders/` and one entry in
/// ``allContenders``.
protocol Contender: Sendable {
    var info: ContenderInfo { get }

    /// Whether the contender has the operations `scenario` needs (`first` needs a race, `cancel`
    /// needs cancellation).
    func supports(_ scenario: Scenario) -> Bool

    /// Runs `scenario` once on `inputs`, from the benchmark thread, and returns its checksum once
    /// the whole run has finished. Blocks until then.
    func run(_ scenario: Scenario, _ inputs: Inputs, clock: PhaseClock) throws -> Int

    /// Makes `count` pending promises with one `then` each, inside `meter.measure` (the arrays
    /// that hold them are reserved outside it), and returns a function that settles them all and
    /// waits for the callbacks.
    func holdPending(count: Int, meter: AllocationMeter) throws -> () throws -> Void
}

/// Every contender, in the column order of the report: floors, peers, then the registered designs.
let allContenders: [any Contender] = [
    DirectContender(), GCDContender(), SwiftConcurrencyContender(), NIOContender(),
    FBLContender(), AYContender(), QXContender(), QNContender(),
]
