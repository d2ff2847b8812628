import CostOperations
import DesignRegistry
import Foundation
import TestSupport
import Testing

/// Exact allocation counts per operation, as SwiftNIO's allocation-counter tests pin them: an
/// extra allocation on a hot path fails CI, deterministically, where a timing goal could not.
///
/// The counts come from the `AllocationCounter` tool (Benchmarks/Costs/AllocationCounter), which
/// `swift build` and `swift test` build beside this test bundle and which counts with the
/// `AllocationCounting` target in a process of its own. They are debug-build counts, as `swift test`
/// builds; `compare`'s release figures are in Reports/benchmarks.md (see
/// Reports/performance.md for where they differ).
@Suite("Allocation budgets")
struct AllocationBudgetTests {
    /// Allocations per unit of each design's operation, in the debug build `swift test` makes (a
    /// release build allocates less: Reports/performance.md), as each operation states it beside
    /// its code in `Benchmarks/Costs/CostOperations` (`Budget.allocations`, with why). Lower a budget
    /// when an operation gets cheaper: the test fails on any difference, so that the figure there
    /// stays the truth.
    static let budgets: [String: Int] = Dictionary(
        uniqueKeysWithValues: CostOperations.all.compactMap { operation in
            operation.budget.allocations.map { (operation.name, $0) }
        })

    /// Bytes requested per pending promise with one `then` (what it holds while it waits), in the
    /// debug build `swift test` makes, which adds a leak tracker (its reporter and where the
    /// promise was made, an existential) to every promise and task (`Budget.pendingBytes`). Met
    /// within ``byteTolerance``; the release figures are in Reports/benchmarks.md.
    static let pendingByteBudgets: [String: Int] = Dictionary(
        uniqueKeysWithValues: CostOperations.all.compactMap { operation in
            operation.budget.pendingBytes.map { (operation.name, $0) }
        })

    /// How far a byte count may stray from its budget: GCD's caches refill inside a run now and
    /// then, where a change to a promise's layout moves it by 8 bytes or more.
    static let byteTolerance = 4

    struct Count: Decodable {
        let design: String
        let operation: String
        /// Per unit, rounded (see the tool for why a few thousandths are not an allocation).
        let allocations: Int
        /// Per unit, as measured.
        let measured: Double
        /// Bytes requested per unit, rounded.
        let bytes: Int
        var key: String { "\(design) \(operation)" }
    }

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
        #expect(costs.costOperations.allSatisfy { $0.design == design.rawValue })
    }

    @Test(
        "every operation allocates exactly its budget; a pending promise holds its bytes",
        .enabled(if: countable, "the counter replaces glibc's allocator only"),
        .disabled(if: Sanitizer.isActive, "the sanitizers replace malloc themselves; the plain run checks the budgets"))
    func budgets() async throws {
        let counts = try await offPool("AllocationCounter", timeout: longTimeout(.seconds(120))) {
            try Self.runCounter()
        }
        #expect(Set(counts.map(\.key)) == Set(Self.budgets.keys), "operations measured vs budgeted")
        for count in counts {
            guard let budget = Self.budgets[count.key] else { continue }
            #expect(count.allocations == budget, "\(count.key): \(count.measured) allocations, budget \(budget)")
        }
        for (key, budget) in Self.pendingByteBudgets {
            guard let count = counts.first(where: { $0.key == key }) else {
                Issue.record("\(key): not measured")
                continue
            }
            #expect(
                abs(count.bytes - budget) <= Self.byteTolerance,
                "\(key): \(count.bytes) bytes per pending promise, budget \(budget)")
        }
    }

    /// The counter's own safety: threads that exit while it counts, and free memory in a late
    /// thread-exit destructor, leave the heap intact. The counter used before (malloc-interposer
    /// 1.6.1) failed this within a few rounds, and it crashed `compare` the same way.
    @Test(
        "threads that exit while allocations are counted leave the heap intact",
        .enabled(if: countable, "the counter replaces glibc's allocator only"),
        .disabled(if: Sanitizer.isActive, "the sanitizers replace malloc themselves; the plain run checks the counter"))
    func threadExit() async throws {
        let data = try await offPool("AllocationCounter --thread-exit-check", timeout: longTimeout(.seconds(120))) {
            try Self.runCounter(["--thread-exit-check"])
        }
        let output = String(decoding: data, as: UTF8.self)
        #expect(output.contains(" 0 damaged words"), "\(output)")
    }

    /// Runs the tool that `swift build` put next to this test bundle and decodes its lines.
    static func runCounter() throws -> [Count] {
        try String(decoding: runCounter([]), as: UTF8.self)
            .split(separator: "\n")
            .map { try JSONDecoder().decode(Count.self, from: Data($0.utf8)) }
    }

    /// Runs the tool with `arguments`; its standard output, or an error if it failed.
    static func runCounter(_ arguments: [String]) throws -> Data {
        let run = try ToolRun.run(try ToolRun.builtTool("AllocationCounter"), arguments)
        guard run.status == 0 else { throw CounterFailed(status: run.status) }
        return run.output
    }

    struct CounterFailed: Error, CustomStringConvertible {
        let status: Int32
        var description: String { "AllocationCounter exited with status \(status)" }
    }
}
