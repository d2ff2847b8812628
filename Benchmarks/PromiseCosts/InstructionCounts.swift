/// Instructions per operation, counted by valgrind's callgrind, and the budgets CI holds them to.
///
/// Instruction counts do not move with the machine's load the way time does: the same binary
/// with the same input executes the same instructions, up to the few that depend on how threads
/// interleave (a lock that spins once more, a queue's worker woken once more). Counted at two
/// sizes and divided by the difference, one-time costs (loading, the runtime's caches, a queue's
/// first thread) cancel, and what is left is the cost of one more unit, as exact as an allocation
/// count. The limits of the method are in `Reports/instructions.md`.
public enum InstructionCounts {
    /// How far a count may move from its budget either way, as a fraction: the interleaving of
    /// threads moves a count by well under 1 % between most runs, a changed hot path by more.
    public static let tolerance = 0.03

    /// The total of a callgrind output file: its `summary:` line (or `totals:`, which older
    /// versions write instead), or `nil` when it has neither.
    public static func total(ofCallgrindOutput text: Substring) -> Int? {
        for line in text.split(separator: "\n") {
            for key in ["summary:", "totals:"] where line.hasPrefix(key) {
                return line.dropFirst(key.count).split(separator: " ").first.flatMap { Int($0) }
            }
        }
        return nil
    }

    /// Instructions per unit from totals at two sizes.
    public static func perUnit(small: (units: Int, total: Int), large: (units: Int, total: Int)) -> Double {
        precondition(large.units > small.units, "the second size must be the larger")
        return Double(large.total - small.total) / Double(large.units - small.units)
    }

    /// A count against its budget.
    public enum Check: Equatable, Sendable {
        /// Within the tolerance of the budget.
        case withinBudget
        /// Above the budget by more than the tolerance: the operation got more expensive.
        case over(budget: Int)
        /// Below it by more than the tolerance: lower the budget, so that it stays the truth.
        case under(budget: Int)
        /// No budget for the operation.
        case noBudget

        /// Over or under: the budget and the count disagree.
        public var isOffBudget: Bool {
            switch self {
            case .over, .under: true
            case .withinBudget, .noBudget: false
            }
        }
    }

    /// `measured` against `budget`, allowing ``tolerance`` either way.
    public static func check(_ measured: Double, budget: Int?) -> Check {
        guard let budget else { return .noBudget }
        if measured > Double(budget) * (1 + tolerance) { return .over(budget: budget) }
        if measured < Double(budget) * (1 - tolerance) { return .under(budget: budget) }
        return .withinBudget
    }
}
