public import CompareKit
public import DesignRegistry
import Dispatch
import Foundation

/// Every design's basic operations, as the cost counters run them: `AllocationCounter` counts
/// their allocations, `InstructionCounter` their instructions, each per unit by the difference of
/// two sizes.
public enum CostOperations {
    /// Every operation: raw GCD's, then every registered design's, then the floors'.
    public static let all: [Measurement] =
        GCDOperations.all + Design.allCases.flatMap { $0.costs?.costOperations ?? [] } + FloorOperations.all
}

/// A registered design's costs and goals, stated in its own file of this module
/// (`<Name>Operations.swift`) as a conformance of its adapter, so that the lab needs no list of
/// designs: ``CostOperations/all`` and the report policy find every design's through ``Design``.
/// `AllocationBudgetTests` fails for a registered design without one.
public protocol CostedDesign: RegisteredAdapter {
    /// The design's operations, written with its own API, each with its budget.
    static var costOperations: [Measurement] { get }
    /// The operation of ``costOperations`` that is one link of a chain, which the README's table
    /// quotes.
    static var chainLinkOperation: String { get }
    /// What `benchmarks.md` checks the design's times and memory against: evidence, never a test,
    /// since timings on a shared machine move.
    static var targets: TargetTable.Limits { get }
}

extension CostedDesign {
    public static var chainLinkOperation: String { "chain link" }
}

extension Design {
    /// The design's costs and goals (``CostedDesign``), or `nil` while its operations file is
    /// missing.
    public var costs: (any CostedDesign.Type)? { adapter as? any CostedDesign.Type }
}

/// What one unit of an operation may cost, stated beside the operation so that a design's costs
/// live in its own file. Change a budget in the commit that moves it, and say why there.
public struct Budget: Sendable {
    /// Allocations per unit in the debug build `swift test` makes, exactly (`AllocationBudgetTests`);
    /// `nil` for raw GCD and the floor prototypes, which the designs are compared with, not budgeted.
    public let allocations: Int?
    /// Bytes requested per pending promise in that debug build, which adds a leak tracker to
    /// every promise and task (`AllocationBudgetTests`, within a few bytes); `nil` when the
    /// operation is not a pending promise.
    public let pendingBytes: Int?
    /// Instructions per unit in a release build, as callgrind counts them on x86_64 Linux with this
    /// package's toolchain (`InstructionCounter`, within 3 %); elsewhere none is checked.
    public let instructions: Int

    public init(allocations: Int? = nil, pendingBytes: Int? = nil, instructions: Int) {
        self.allocations = allocations
        self.pendingBytes = pendingBytes
        self.instructions = instructions
    }
}

/// One counted operation: `run(units, start, stop)` sets up, calls `start`, does `units` units of
/// the operation, calls `stop`, then tears down.
///
/// What is counted between `start` and `stop` must not depend on thread timing, or the count
/// would not be exact. Settling and running callbacks on one serial queue is exact (a chain
/// link: each link's callback dispatches the next from the thread draining the queue). Settling
/// from another thread is not: GCD's per-thread caches of queued work then refill from the heap
/// depending on which worker ran what (`all` counted through its settlement varied between 8 and
/// 14 allocations per input from run to run). So `all input` counts registering on pending
/// inputs, and `fan-out observer` counts registering and one settle from this thread. Where
/// another thread settles and the queue runs many callbacks, the queue is held while they queue
/// (`holding`), so that one worker drains them in one go.
public struct Measurement: Sendable {
    public let design: String
    public let operation: String
    /// What one unit may cost.
    public let budget: Budget
    public let run: @Sendable (Int, () -> Void, () -> Void) -> Void

    public init(
        design: String, operation: String, budget: Budget,
        run: @escaping @Sendable (Int, () -> Void, () -> Void) -> Void
    ) {
        self.design = design
        self.operation = operation
        self.budget = budget
        self.run = run
    }

    /// `"FBL chain link"`: the name budgets are keyed by.
    public var name: String { "\(design) \(operation)" }
}

extension Measurement {
    /// "A pending promise with one `then`", as every design measures it: between `start` and
    /// `stop`, `units` times, `make` makes a pending promise and registers one callback on it
    /// that ticks `done` (the arrays that keep both are reserved before `start`); then every
    /// promise is settled with `queue` held, so that one worker drains the callbacks, and they are
    /// waited for.
    static func pendingWithOneThen<Root, Then>(
        design: String, operation: String = "pending promise with one then", budget: Budget, queue: DispatchQueue,
        make: @escaping @Sendable (_ done: Countdown) -> (root: Root, then: Then),
        settle: @escaping @Sendable (Root) -> Void
    ) -> Measurement {
        Measurement(design: design, operation: operation, budget: budget) { units, start, stop in
            let done = Countdown(units)
            var roots: [Root] = []
            var thens: [Then] = []
            roots.reserveCapacity(units)
            thens.reserveCapacity(units)
            start()
            for _ in 0..<units {
                let (root, then) = make(done)
                roots.append(root)
                thens.append(then)
            }
            stop()
            queue.holding { for root in roots { settle(root) } }
            done.wait()
            withExtendedLifetime(thens) {}
        }
    }
}

extension Countdown {
    /// Waits for the last tick; a lost callback ends the process instead of hanging it.
    func wait() {
        guard sum(waitingAtMost: .seconds(120)) != nil else {
            FileHandle.standardError.write(Data("\(CommandLine.arguments[0]): an operation timed out\n".utf8))
            exit(1)
        }
    }
}

extension DispatchQueue {
    /// Runs `body` with the queue suspended: the callbacks `body` queues wait, then drain in one
    /// go on one worker. Settled while a worker drains, how often that worker ran dry, parked and
    /// was woken again would depend on thread timing, and so would the count (fan-out observers
    /// moved by 6 % between two runs of one binary that way).
    func holding(_ body: () -> Void) {
        suspend()
        body()
        resume()
    }
}

/// The error an error link's chain is rejected with.
struct CostError: Error {}

/// Raw GCD doing what a promise's operation does, for comparison (no budget in the allocation
/// test, whose subject is the designs).
enum GCDOperations {
    static let queue = DispatchQueue(label: "costs.gcd")

    static let all: [Measurement] = [
        Measurement(
            design: "GCD", operation: "chain link",
            budget: Budget(instructions: 1_236)
        ) { units, start, stop in
            let done = Countdown(1)
            start()
            // Each block dispatches the next, as each link's callback settles the next link.
            @Sendable func hop(_ remaining: Int, _ value: Int) {
                guard remaining > 0 else { return done.tick() }
                queue.async { hop(remaining - 1, value + 1) }
            }
            hop(units, 0)
            done.wait()
            stop()
        },
        Measurement(
            design: "GCD", operation: "fan-out observer",
            budget: Budget(instructions: 1_562)
        ) { units, start, stop in
            let done = Countdown(units)
            start()
            queue.holding { for _ in 0..<units { queue.async { done.tick() } } }
            done.wait()
            stop()
        },
    ]
}
