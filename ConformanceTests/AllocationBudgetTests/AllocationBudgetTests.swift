import Foundation
import TestSupport
import Testing

/// Exact allocation counts per operation, as SwiftNIO's allocation-counter tests pin them: an
/// extra allocation on a hot path fails CI, deterministically, where a timing goal could not.
///
/// The counts come from the `AllocationCounter` tool (Benchmarks/AllocationCounter), which
/// `swift build` and `swift test` build beside this test bundle and which counts with ordo-one's
/// malloc-interposer in a process of its own. They are debug-build counts, as `swift test`
/// builds; `compare`'s release figures are in Reports/benchmarks.md (see
/// Reports/performance.md for where they differ).
@Suite("Allocation budgets")
struct AllocationBudgetTests {
    /// Allocations per unit of each operation, in the debug build `swift test` makes (a release
    /// build allocates less: Reports/performance.md). Lower a budget when an operation gets
    /// cheaper: the test fails on any difference, so that the figure here stays the truth.
    static let budgets: [String: Int] = [
        // The promise `then` returns and its observer, which captures the callback itself.
        "FBL pending promise with one then": 3,
        // The above, and GCD's closure and block for the callback.
        "FBL chain link": 4,
        // The link and its observer in the shared list (the list's array grows, amortised).
        "FBL fan-out observer": 6,
        // `observe`'s two callbacks and its observer, per input.
        "FBL all input": 3,
        // The promise `then` returns and its one handler, which holds the block as written.
        "AY pending promise with one then": 3,
        // The above, and GCD's block for the handler's dispatch.
        "AY chain link": 4,
        // The link and its handler in the shared list (the list's array grows, amortised).
        "AY fan-out observer": 6,
        // `all`'s handler per input.
        "AY all input": 2,
        // The pending promise, its resolver's settler, the side table its weak reference needs,
        // and the link, which is itself the observer of the promise's `state` key.
        "QX pending promise with one then": 4,
        // The link, and its hop to its queue: the hop's closure and GCD's block for it.
        "QX chain link": 3,
        // The link, its hop, and the growth of the promise's observer array (amortised).
        "QX fan-out observer": 4,
        // `all`'s handler per input, which hops to the queue when told.
        "QX all input": 3,
        // A public observation: its token and the observer that holds the handler.
        "QX key-value observation": 4,
        // The manual task, the continuation, the side table of the source's weak reference, and
        // the typed callback's wrapper (a task's core stores observers that take the outcome erased).
        "QN pending task with one map": 4,
        // The continuation, its hop, and the context of the closure that reads its state.
        "QN map link": 5,
        // The continuation, its hop, its callback's wrapper and the source's observer growth.
        "QN fan-out observer": 8,
    ]

    /// Bytes requested per pending promise with one `then` (what it holds while it waits), in the
    /// debug build `swift test` makes, which adds a leak tracker (its reporter and where the
    /// promise was made, an existential) to every promise and task. Met within ``byteTolerance``;
    /// the release figures are in Reports/benchmarks.md.
    static let pendingByteBudgets: [String: Int] = [
        "FBL pending promise with one then": 288,
        "AY pending promise with one then": 353,
        "QX pending promise with one then": 465,
        // The manual task and its start block, the continuation, the side table of the source's
        // weak reference and the typed callback's wrapper.
        "QN pending task with one map": 480,
    ]

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

    @Test(
        "every operation allocates exactly its budget; a pending promise holds its bytes",
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

    /// Runs the tool that `swift build` put next to this test bundle and decodes its lines.
    static func runCounter() throws -> [Count] {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let tool = bundle.appendingPathComponent("AllocationCounter")
        guard FileManager.default.isExecutableFile(atPath: tool.path) else {
            throw CounterMissing(path: tool.path)
        }
        let process = Process()
        process.executableURL = tool
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CounterFailed(status: process.terminationStatus) }
        return try String(decoding: data, as: UTF8.self)
            .split(separator: "\n")
            .map { try JSONDecoder().decode(Count.self, from: Data($0.utf8)) }
    }

    struct CounterMissing: Error, CustomStringConvertible {
        let path: String
        var description: String { "no AllocationCounter at \(path): build the package (`swift build`) first" }
    }

    struct CounterFailed: Error, CustomStringConvertible {
        let status: Int32
        var description: String { "AllocationCounter exited with status \(status)" }
    }
}
