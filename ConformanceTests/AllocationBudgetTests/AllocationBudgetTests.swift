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
        // The above, plus GCD's closure and block for the callback. (No cast: `Int` is remembered
        // as plain, `PlainTypeCache`.)
        "FBL chain link": 4,
        // 8 while the observers were a list of FBL's own; the shared `InlineFirstList` (with each
        // observer in a struct, so the closure is not reabstracted) makes 6 in a debug build.
        "FBL fan-out observer": 6,
        // `observe`'s two callbacks and its observer, per input.
        "FBL all input": 3,
        // The promise `then` returns and its one handler, which holds the block as written (no
        // operator closure, no wrapping closure); `deferred`'s root promise holds its own
        // first-call flag (no gate object).
        "AY pending promise with one then": 3,
        // The above, plus GCD's block for the handler's dispatch. The resolution procedure casts
        // nothing for a type it has seen (`ayPlainTypes`).
        "AY chain link": 4,
        // 8 while the handlers were a list of AY's own, as for FBL.
        "AY fan-out observer": 6,
        // `all`'s handler per input (a release build makes only that one).
        "AY all input": 2,
        // The pending promise, its resolver's settler, the side table its weak reference needs,
        // and the link, which is the observer of the promise's `state` key itself (no token, no
        // handler closure; the block captures one object, which Swift stores as the closure's
        // context without a box). The promise's first observer is stored inline.
        "QX pending promise with one then": 4,
        // The link, and its hop to its queue when the previous link settles: the hop's closure and
        // GCD's block for it. The resolution procedure casts nothing for a type it has seen.
        "QX chain link": 3,
        // The link, its hop, and the growth of the promise's observer array (amortised).
        "QX fan-out observer": 4,
        // `all`'s handler per input, which hops to the queue when told (a release build: 1).
        "QX all input": 3,
        // A public observation: its token and the observer that holds the handler (a release
        // build makes only those two; a debug build adds reabstraction thunks for the generic
        // handler).
        "QX key-value observation": 4,
        // `map` is a continuation: one task per link (before continuations, a two-step serial task
        // per `then`: 29 in compare's release count). A release build makes 4 too: the manual
        // task, the continuation, the side table of the source's weak reference, and the typed
        // callback's wrapper (a task's core stores observers that take the outcome erased, so
        // `start(on:completion:)` wraps a typed callback in one that casts). Each task keeps its
        // first observer inline: 6 while both kept an observer array.
        "QN pending task with one map": 4,
        // A release build: 4 (a debug build allocates a context for the closure that reads the
        // continuation's state under its lock). One more (7 in a debug build) while the source
        // kept its observer in an array, and one more again while every freed link started a
        // `releaseIteratively` loop, which allocates its list, with nothing left to free.
        "QN map link": 5,
        // A release build: 7 (8 while the continuation kept its observer in an array).
        "QN fan-out observer": 8,
    ]

    /// Bytes requested per pending promise with one `then` (what it holds while it waits), in the
    /// debug build `swift test` makes, which adds a leak tracker (its reporter and where the
    /// promise was made, an existential) to every promise and task; the
    /// release figures, which `compare` reports, are in the comments. Met within
    /// ``byteTolerance``.
    static let pendingByteBudgets: [String: Int] = [
        // Release: 180.
        "FBL pending promise with one then": 288,
        // Release: 233.
        "AY pending promise with one then": 353,
        // Release: 369.
        "QX pending promise with one then": 465,
        // Release: 384. The manual task (112 bytes and its start block's 16), the continuation
        // (168), the side table of the source's weak reference and the typed callback's wrapper.
        // 632 before the task's rarely used state (cancellation handlers, monitors, ID, recorded
        // awaited task) moved out of line and the continuation's link into the task's own lock;
        // 448 before each task kept its first observer inline instead of in an array.
        "QN pending task with one map": 480,
    ]

    /// How far a byte count may stray from its budget: GCD's caches refill inside a run now and
    /// then (QX's count moves by up to 3 bytes from run to run), where a change to a
    /// promise's layout moves it by 8 bytes or more.
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
