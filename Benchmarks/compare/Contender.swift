import CompareKit
import DesignRegistry

/// One implementation measured by `compare`: a baseline, a peer or one of the designs.
///
/// A contender runs each scenario through its own native API, written the way its users would
/// write it. Adding a design to the benchmark means one file in `Contenders/` and one case in
/// ``contender(for:)``, which the compiler asks for.
protocol Contender: Sendable {
    var info: ContenderInfo { get }

    /// The scenarios the contender has operations for, each run by a function of its own.
    ///
    /// A scenario missing from the table is one the contender sits out (`first` needs a race,
    /// `cancel` needs cancellation); the report says so in its cell. The harness looks a run up
    /// once per cell, before anything is timed.
    var scenarios: [Scenario: ScenarioRun] { get }

    /// Makes `count` pending promises with one `then` each, inside `meter.measure` (the arrays
    /// that hold them are reserved outside it), and returns a function that settles them all and
    /// waits for the callbacks.
    func holdPending(count: Int, meter: AllocationMeter) throws -> () throws -> Void
}

/// One scenario as one contender runs it: once on the inputs, from the benchmark thread,
/// returning its checksum once the whole run has finished (it blocks until then). A run that has
/// a phase it must not be timed for tells the clock (``PhaseClock``).
typealias ScenarioRun = (Inputs, PhaseClock) throws -> Int

/// Every contender, in the column order of the report: floors, peers, then every registered
/// design, in `Design` order.
let allContenders: [any Contender] =
    [DirectContender(), GCDContender(), SwiftConcurrencyContender(), NIOContender(), CombineContender()]
    + Design.allCases.map(contender(for:))

/// The contender that measures `design`. The switch is exhaustive: a design added to `Design`
/// without a contender does not compile. (`CompareCommandTests` checks that each contender is
/// listed under its design's name.)
func contender(for design: Design) -> any Contender {
    switch design {
    case .fbl: return FBLContender()
    case .ay: return AYContender()
    case .qx: return QXContender()
    case .qn: return QNContender()
    }
}
