import CompareKit
import DesignRegistry
import Dispatch
import Foundation

/// Every design's basic operations, as the cost counters run them: `AllocationCounter` counts
/// their allocations, `InstructionCounter` their instructions, each per unit by the difference of
/// two sizes.
public enum CostOperations {
    /// Every operation, design by design.
    public static let all: [Measurement] =
        GCDOperations.all + FBLOperations.all + AYOperations.all + QXOperations.all + QNOperations.all
        + FloorOperations.all
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
