import CostOperations
import DesignRegistry
import Foundation
import PromiseCosts
import PromiseCostsTesting
import TestSupport
import Testing

/// Exact allocation counts per operation, as SwiftNIO's allocation-counter tests pin them: an
/// extra allocation on a hot path fails CI, deterministically, where a timing goal could not.
///
/// The counts come from the `AllocationCounter` tool (Benchmarks/Costs/AllocationCounter), which
/// `swift build` and `swift test` build beside this test bundle: the cost product's allocation
/// runner over the designs' operations, in a process of its own, checked here by the product's
/// test runner (`PromiseCostsTesting`), as any library's would be. They are debug-build counts, as `swift test`
/// builds; `compare`'s release figures are in Reports/benchmarks.md (see
/// Reports/performance.md for where they differ).
@Suite("Allocation budgets")
struct AllocationBudgetTests {
    /// Whether the counter counts here: it replaces glibc's allocator, and nothing elsewhere.
    static let countable: Bool = {
        #if canImport(Glibc)
            return true
        #else
            return false
        #endif
    }()

    @Test("every registered design states its operations, budgets and targets", arguments: Design.allCases)
    func everyDesignHasItsCosts(_ design: Design) throws {
        let path = "Benchmarks/Costs/CostOperations/\(design.rawValue)Operations.swift"
        let costs = try #require(
            design.costs,
            "\(path): no `extension \(design.rawValue)Adapter: CostedDesign`. Fix: write the design's operations there, each with its budgets, and its targets. Rule: CONTRIBUTING.md#adding-a-design"
        )
        #expect(!costs.costOperations.isEmpty, "\(path): no operation")
        #expect(
            costs.costOperations.contains { $0.operation == costs.chainLinkOperation },
            "\(path): no operation named \"\(costs.chainLinkOperation)\", which the README's table quotes")
        #expect(costs.costOperations.allSatisfy { $0.library == design.rawValue })
    }

    @Test(
        "every operation allocates exactly its budget; a pending promise holds its bytes",
        .enabled(if: countable, "the counter replaces glibc's allocator only"),
        .disabled(if: Sanitizer.isActive, "the sanitizers replace malloc themselves; the plain run checks the budgets"))
    func budgets() async throws {
        // The cost product's test runner, on the tool built from its allocation runner: it
        // records an issue for every count off its budget.
        let counts = try await AllocationBudgets.expectMet(
            byTool: "AllocationCounter", timeout: longTimeout(.seconds(300)))
        let budgeted = CostOperations.all.filter { $0.budget.allocations != nil }.map(\.name)
        #expect(
            Set(counts.filter { $0.allocationBudget != nil }.map(\.name)) == Set(budgeted),
            "operations measured vs budgeted")
        #expect(counts.count == CostOperations.all.count, "every operation counted, raw GCD's and the floors' too")
    }

    /// The counter's own safety: threads that exit while allocations are counted, and free memory
    /// in a late thread-exit destructor, leave the heap intact. The counter used before
    /// (malloc-interposer 1.6.1) failed this within a few rounds, and it crashed `compare` the
    /// same way.
    @Test(
        "threads that exit while allocations are counted leave the heap intact",
        .enabled(if: countable, "the counter replaces glibc's allocator only"),
        .disabled(if: Sanitizer.isActive, "the sanitizers replace malloc themselves; the plain run checks the counter"))
    func threadExit() async throws {
        let run = try await offPool("AllocationCounter --check-counter", timeout: longTimeout(.seconds(120))) {
            try ToolRun.run(try ToolRun.builtTool("AllocationCounter"), ["--check-counter"])
        }
        #expect(run.status == 0 && run.text.contains(" 0 damaged words"), "\(run.text)")
    }
}
