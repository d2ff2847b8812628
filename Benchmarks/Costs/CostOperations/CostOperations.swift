public import CompareKit
public import DesignRegistry
public import PromiseCosts

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
    static let all: [CountedOperation] = RawGCD.operations(budgets: [
        .chainLink: Budget(instructions: 1_236),
        .fanOutObserver: Budget(instructions: 1_562),
    ])
}
