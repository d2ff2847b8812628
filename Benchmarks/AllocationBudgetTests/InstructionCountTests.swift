import CostOperations
import DesignRegistry
import PromiseCosts
import Testing

/// The arithmetic of `InstructionCounter`, the tool CI runs under callgrind to hold each
/// operation's instructions to its budget.
@Suite("Instruction counts")
struct InstructionCountTests {
    @Test("the total comes from callgrind's summary line, or its totals line, and nothing else")
    func total() {
        let output = "version: 1\ncreator: callgrind-3.19.0\nevents: Ir\nfn=main\n12 34\nsummary: 61827413\n"
        #expect(InstructionCounts.total(ofCallgrindOutput: output[...]) == 61_827_413)
        #expect(InstructionCounts.total(ofCallgrindOutput: "events: Ir\ntotals: 5 7\n"[...]) == 5)
        #expect(InstructionCounts.total(ofCallgrindOutput: "events: Ir\nfn=main\n"[...]) == nil)
    }

    @Test("per unit is the difference of two totals over the difference of the sizes")
    func perUnit() {
        #expect(InstructionCounts.perUnit(small: (1_000, 2_000_000), large: (3_000, 12_000_000)) == 5_000)
    }

    @Test("a count is off budget beyond the tolerance either way")
    func budgets() {
        #expect(InstructionCounts.check(5_100, budget: 5_000) == .withinBudget)
        #expect(InstructionCounts.check(4_900, budget: 5_000) == .withinBudget)
        #expect(InstructionCounts.check(5_200, budget: 5_000) == .over(budget: 5_000))
        #expect(InstructionCounts.check(4_800, budget: 5_000) == .under(budget: 5_000))
        #expect(InstructionCounts.check(4_800, budget: nil) == .noBudget)
        #expect(InstructionCounts.check(5_200, budget: 5_000).isOffBudget)
        #expect(InstructionCounts.check(4_800, budget: 5_000).isOffBudget)
        #expect(!InstructionCounts.check(5_100, budget: 5_000).isOffBudget)
        #expect(!InstructionCounts.check(4_800, budget: nil).isOffBudget)
    }

    /// The cost product shows a library's author where the designs stand; those counts must be
    /// the designs' budgets, which CI holds the designs to.
    @Test("the cost product's table of the designs' counts is their budgets")
    func designCountsAreTheBudgets() throws {
        let byName = Dictionary(
            CostOperations.all.compactMap { op in op.budget.instructions.map { (op.name, $0) } },
            uniquingKeysWith: { first, _ in first })
        for design in DesignCounts.all {
            let costs = try #require(Design(rawValue: design.design)?.costs, "\(design.design) is no costed design")
            for (operation, count) in design.counts {
                let name: String =
                    switch operation {
                    case .chainLink: costs.chainLinkOperation
                    case .pendingWithOneThen:
                        costs.costOperations.first { $0.operation.hasPrefix("pending") }?.operation ?? ""
                    default: operation.rawValue
                    }
                #expect(byName["\(design.design) \(name)"] == count, "\(design.design) \(name): budget vs \(count)")
            }
        }
        for (operation, count) in DesignCounts.gcd {
            #expect(byName["GCD \(operation.rawValue)"] == count, "GCD \(operation.rawValue)")
        }
    }
}
