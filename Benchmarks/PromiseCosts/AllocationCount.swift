/// One operation's allocations per unit, as the allocation runner prints it (one JSON line per
/// operation) and ``AllocationCount/problems`` checks it against the operation's budget.
public struct AllocationCount: Codable, Sendable, Equatable {
    /// The library, the first word of the operation's name.
    public var library: String
    /// The operation: "chain link".
    public var operation: String
    /// Allocations per unit, rounded: a dispatch continuation cache refilled, or an array
    /// doubling, inside one of the two runs shows as a few thousandths; a real extra allocation
    /// as a whole one.
    public var allocations: Int
    /// Allocations per unit as measured, before rounding.
    public var measured: Double
    /// Bytes requested per unit, rounded.
    public var bytes: Int
    /// The operation's budget of allocations per unit, if it has one.
    public var allocationBudget: Int?
    /// The operation's budget of bytes per pending promise, if it has one.
    public var pendingByteBudget: Int?

    public init(
        library: String, operation: String, allocations: Int, measured: Double, bytes: Int, allocationBudget: Int?,
        pendingByteBudget: Int?
    ) {
        self.library = library
        self.operation = operation
        self.allocations = allocations
        self.measured = measured
        self.bytes = bytes
        self.allocationBudget = allocationBudget
        self.pendingByteBudget = pendingByteBudget
    }

    /// How far a byte count may stray from its budget: GCD's caches refill inside a run now and
    /// then, where a change to a promise's layout moves it by 8 bytes or more.
    public static let byteTolerance = 4

    /// The allocation tool's exit status when it cannot count where it runs (not Linux with glibc,
    /// or a sanitizer's allocator in the process).
    public static let cannotCountStatus: Int32 = 2

    /// `"MyPromise chain link"`.
    public var name: String { "\(library) \(operation)" }

    /// What disagrees with the budget, one sentence each; empty when the count meets it or there
    /// is no budget. An allocation count must equal its budget exactly, either way: lower a
    /// budget when an operation gets cheaper, so that the figure stays the truth.
    public var problems: [String] {
        var problems: [String] = []
        if let budget = allocationBudget, allocations != budget {
            problems.append(
                "\(name): \(allocations) allocations per unit (measured \(measured)), budget \(budget); "
                    + (allocations > budget ? "an allocation was added" : "it got cheaper: lower the budget"))
        }
        if let budget = pendingByteBudget, abs(bytes - budget) > Self.byteTolerance {
            problems.append(
                "\(name): \(bytes) bytes per pending promise, budget \(budget) (±\(Self.byteTolerance))")
        }
        return problems
    }

    /// The line for a count without a budget: what to write in.
    public var unbudgetedNote: String? {
        guard allocationBudget == nil else { return nil }
        return "\(name): \(allocations) allocations, \(bytes) bytes per unit (no budget)"
    }
}
