public import CompareKit
public import DesignRegistry
import Dispatch
public import PromiseCosts
import Synchronization

/// Every design's basic operations, as the cost product's runners count them (`PromiseCosts`):
/// `AllocationCounter` counts their allocations, `InstructionCounter` their instructions, each per
/// unit by the difference of two sizes.
public enum CostOperations {
    /// Every operation: raw GCD's, then every registered design's, then the floors'.
    public static let all: [CountedOperation] =
        GCDOperations.all + Design.allCases.flatMap { $0.costs?.costOperations ?? [] } + FloorOperations.all
}

/// A registered design's costs and goals, stated in its own file of this module
/// (`<Name>Operations.swift`) as a conformance of its adapter, so that the lab needs no list of
/// designs: ``CostOperations/all`` and the report policy find every design's through ``Design``.
/// `AllocationBudgetTests` fails for a registered design without one.
public protocol CostedDesign: RegisteredAdapter {
    /// The design's operations, written with its own API, each with its budget.
    static var costOperations: [CountedOperation] { get }
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

/// Raw GCD doing what a promise's operation does, for comparison (no allocation budget: the
/// allocation test's subject is the designs), with the instruction budgets CI holds it to.
enum GCDOperations {
    static let queue = DispatchQueue(label: "costs.gcd")

    static let all: [CountedOperation] =
        RawGCD.operations(budgets: [
            .chainLink: Budget(instructions: 1_236),
            .fanOutObserver: Budget(instructions: 1_562),
        ]) + [
            // Raw GCD's race: a completion handler per input, made, each sharing the flag that the
            // first to run sets; the winner's dispatched when it settles, the others dropped (what
            // `compare`'s first scenario runs).
            CountedOperation(library: "GCD", operation: "first input", budget: Budget(instructions: 651)) {
                units, start, stop in
                let done = Countdown(1)
                start()
                let decided = CancelFlag()
                let handlers: [@Sendable (Int) -> Void] = (0..<units).map { _ in
                    { _ in if !decided.set() { done.tick() } }
                }
                let winner = units * 7 / 10
                // The block holds the winner's handler only. Holding the array, it could be the last
                // to let go of it, and which thread freed the handlers moved the count: 464
                // instructions per input when the queue's thread did (forced by a wait in the block),
                // 651 when this one did; one CI run under load counted 983.
                let winning = handlers[winner]
                queue.async { winning(winner) }
                done.wait()
                withExtendedLifetime(handlers) {}
                stop()
            },
            // Raw GCD's cancellation: a pending operation with a flag and a completion handler;
            // cancelling sets the flag and dispatches the handler, which reports it cancelled.
            CountedOperation(library: "GCD", operation: "cancellation", budget: Budget(instructions: 4_040)) {
                units, start, stop in
                let done = Countdown(units)
                start()
                let operations = (0..<units).map { _ in
                    (flag: CancelFlag(), handler: { @Sendable in done.tick() } as @Sendable () -> Void)
                }
                for (flag, handler) in operations {
                    _ = flag.set()
                    queue.async { handler() }
                }
                done.wait()
                stop()
            },
        ]
}

/// The flag of raw GCD's cancellation: set once.
final class CancelFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() -> Bool { value.exchange(true, ordering: .acquiringAndReleasing) }
}
