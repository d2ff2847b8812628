import ArgumentParser
import CallgrindDump
import CompareKit
import CostOperations
import Dispatch
import Foundation
import Synchronization

/// Counts the instructions of each design's basic operations under valgrind's callgrind, per
/// operation, and checks them against ``budgets``: `swift run -c release InstructionCounter`.
///
/// Each operation runs in a process of its own under callgrind, after a warm-up, at two sizes one
/// after the other, and the tool has callgrind write its counts after each (`CallgrindDump`): the
/// difference of the two counts over the difference of the sizes is one operation's cost, in
/// which one-time costs cancel. One process per operation, not one per size: each spends about
/// 1.3 s under valgrind before it runs anything. callgrind runs a copy of this tool with its debug
/// information stripped (valgrind 3.19 cannot read the DWARF 5 this toolchain writes). It cannot
/// run programs that use Swift concurrency's runtime, so the peers built on it (Swift concurrency
/// itself) are not counted; the report says so.
@main
struct InstructionCounter: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "InstructionCounter",
        abstract: "Count each design's instructions per operation under callgrind and check the budgets.",
        discussion: """
            Needs valgrind and strip on the PATH and a release build (swift run -c release \
            InstructionCounter). Exits with 1 when a count is more than \
            \(Int(InstructionCounts.tolerance * 100)) % over or under its budget.
            """,
        subcommands: [Check.self, Measure.self],
        defaultSubcommand: Check.self
    )

    /// Instructions per operation in a release build, as callgrind counts them on x86_64 Linux
    /// with this package's toolchain: the whole life of one unit (made, registered, settled, its
    /// callback run, freed). Each operation states its budget beside its code, in
    /// `Benchmarks/Costs/CostOperations` (`Budget.instructions`). Elsewhere (another architecture,
    /// another C library) the counts differ and none is checked.
    static let budgets: [String: Int] = {
        #if arch(x86_64) && os(Linux)
            return Dictionary(uniqueKeysWithValues: CostOperations.all.map { ($0.name, $0.budget.instructions) })
        #else
            return [:]
        #endif
    }()
}

/// Counts every operation and checks it against its budget.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Count every operation and check the budgets (the default).")

    @Option(help: "Also write the counts as a Markdown table to this file (Reports/instructions.md keeps one).")
    var report: String?

    @Option(help: "Count only the operations whose name contains this (repeatable): FBL, \"chain link\".")
    var only: [String] = []

    @Option(help: "The two sizes, in units, whose difference is counted.")
    var sizes: [Int] = [1_000, 3_000]

    func validate() throws {
        guard sizes.count == 2, sizes[0] > 0, sizes[1] > sizes[0] else {
            throw ValidationError("--sizes takes two sizes, the second the larger (got \(sizes)).")
        }
        guard callgrind_dump_is_available() else {
            throw ValidationError(
                "this build has no valgrind/callgrind.h, so it cannot count: install valgrind, rebuild")
        }
        #if DEBUG
            throw ValidationError(
                "this is a debug build: count a release build (swift run -c release InstructionCounter).")
        #endif
    }

    func run() throws {
        let tool = try Callgrind.strippedCopy()
        defer { try? FileManager.default.removeItem(at: tool.deletingLastPathComponent()) }
        let wanted = CostOperations.all.filter { op in only.isEmpty || only.contains { op.name.contains($0) } }
        guard !wanted.isEmpty else { throw ValidationError("no operation matches \(only)") }
        let budgets = InstructionCounter.budgets
        let sizes = sizes
        @Sendable func count(_ name: String) throws -> Double {
            let (small, large) = try Callgrind.totals(of: tool, operation: name, sizes: sizes)
            return InstructionCounts.perUnit(small: (sizes[0], small), large: (sizes[1], large))
        }
        // callgrind runs one thread at a time, so the operations are counted as many at once as
        // there are cores (each count is its own process, which no other process's load can move).
        let counted = Mutex([Result<Double, any Error>](repeating: .success(0), count: wanted.count))
        DispatchQueue.concurrentPerform(iterations: wanted.count) { index in
            let name = wanted[index].name
            let result = Result { () throws -> Double in
                let perUnit = try count(name)
                guard InstructionCounts.check(perUnit, budget: budgets[name]).isOffBudget else { return perUnit }
                // A count off budget is taken twice more, and the median of the three decides: a
                // changed hot path moves all three, a process whose threads interleaved unusually
                // only its own.
                return [perUnit, try count(name), try count(name)].sorted()[1]
            }
            counted.withLock { $0[index] = result }
        }
        var rows: [(name: String, perUnit: Double, check: InstructionCounts.Check)] = []
        for (operation, result) in zip(wanted, counted.withLock { $0 }) {
            let perUnit = try result.get()
            let check = InstructionCounts.check(perUnit, budget: budgets[operation.name])
            rows.append((operation.name, perUnit, check))
            let padded = operation.name.padding(toLength: 36, withPad: " ", startingAt: 0)
            print("\(padded) \(String(format: "%9.1f", perUnit)) instructions  \(check)")
        }
        if let report {
            try Data(Self.markdown(rows, sizes: sizes).utf8).write(to: URL(fileURLWithPath: report))
        }
        let failures = rows.filter(\.check.isOffBudget)
        if !failures.isEmpty {
            FileHandle.standardError.write(
                Data(
                    """
                    InstructionCounter: \(failures.count) operation(s) off budget by more than \
                    \(Int(InstructionCounts.tolerance * 100)) %: \(failures.map(\.name).joined(separator: ", "))

                    """.utf8))
            throw ExitCode.failure
        }
    }

    static func markdown(
        _ rows: [(name: String, perUnit: Double, check: InstructionCounts.Check)], sizes: [Int]
    ) -> String {
        let gcd = Dictionary(
            uniqueKeysWithValues: rows.filter { $0.name.hasPrefix("GCD ") }.map { ($0.name, $0.perUnit) })
        var md = """
            # Instructions per operation

            <!-- Generated by `swift run -c release InstructionCounter --report Reports/instructions.md`; \
            edits here are overwritten. -->

            A cost that does not move between runs, beside the times in [benchmarks.md](benchmarks.md): \
            the instructions valgrind's callgrind counts for one unit of each operation, in a release \
            build, from runs of \(Format.count(sizes[0])) and then \(Format.count(sizes[1])) units in one \
            process after a warm-up, each counted alone (the difference of the two counts over the \
            difference of the sizes, so that first-use costs cancel). A unit is its whole life: made, \
            registered, settled, its callback run on a serial queue, freed. glibc's fastbins are off in \
            the counted process (`GLIBC_TUNABLES=glibc.malloc.mxfast=0`): with them, whether a large allocation first \
            consolidates the small chunks freed before depends on which thread freed them, and one \
            count moved by 6 % between runs of one binary; without them, runs of a count agree within \
            about 1 %, and each free costs a little more than a real program's. Builds of different code \
            can move a count by up to 2 % with no change to the operation's own code (QN's map link: \
            10,325 and 10,537 in two builds of the same QN sources, the code around it laid out \
            differently); \
            CI fails when one moves more than \(Int(InstructionCounts.tolerance * 100)) % from its budget \
            (`Benchmarks/Costs/InstructionCounter`), either way, in the median of three counts (a count \
            off budget is taken twice more), so that a change to a design's hot path shows as an exact \
            number and one outlier does not fail it.

            Counted on \(Provenance.cpu()), \(Provenance.date()).

            | Operation | Instructions per unit | Ratio to raw GCD's | Budget |
            |---|---:|---:|---:|

            """
        for row in rows {
            let budget = InstructionCounter.budgets[row.name].map { Format.count($0) } ?? "—"
            // QN's `map` link is its chain link.
            let operation = (row.name.split(separator: " ", maxSplits: 1).last.map(String.init) ?? row.name)
                .replacingOccurrences(of: "map link", with: "chain link")
            let ratio = gcd["GCD " + operation].map { Format.ratio(row.perUnit / $0) } ?? "—"
            md += "| \(row.name) | \(Format.count(Int(row.perUnit.rounded()))) | \(ratio) | \(budget) |\n"
        }
        md += """

            Raw GCD's chain link is one block that dispatches the next; its fan-out observer, one block \
            dispatched per observer. The designs' operations are those of the allocation budgets \
            (`Benchmarks/Costs/CostOperations`), which run each design through its own API.

            ## What it cannot count, and why

            - **Swift concurrency, SwiftNIO and Combine.** valgrind 3.19 stops on programs that run Swift \
            concurrency's runtime (its task switching), so the Swift concurrency peer is not counted; the \
            others are left out to keep this tool's dependencies to the designs. Their costs are in \
            [benchmarks.md](benchmarks.md), in time only.
            - **Time itself.** An instruction is not a nanosecond: cache misses, contention between the \
            two cores and the scheduler's hand-offs between threads cost time and no instructions, so \
            instructions rank a change to a design's own code exactly and say little about a \
            scenario where threads wait for each other.
            - **Other machines.** The counts are for x86_64 Linux with this package's toolchain and C \
            library (valgrind hides the CPU's newest vector instructions, so the C library's choices are \
            the same on the CPUs seen so far); elsewhere the tool reports counts and checks none.
            - **Debug information.** valgrind 3.19 cannot read the DWARF 5 this toolchain writes: the tool \
            runs a copy of itself stripped of it (`strip --strip-debug`), which executes the same code.

            """
        return md
    }
}

/// Where the counts were taken.
enum Provenance {
    static func cpu() -> String {
        "\(Host.cpuModel()) (\(ProcessInfo.processInfo.operatingSystemVersionString))"
    }

    static func date() -> String { String(ISO8601DateFormatter().string(from: Date()).prefix(10)) }
}

/// Runs one operation at each size in turn, callgrind's counts written after the warm-up and after
/// each size: what Check runs under callgrind.
struct Measure: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run one operation at two sizes (what Check runs under callgrind).", shouldDisplay: false)

    @Argument(help: "The operation's name, as Check lists it: \"FBL chain link\".")
    var operation: String

    @Argument(help: "Units of the operation, one run per size.")
    var sizes: [Int]

    func run() throws {
        guard let measurement = CostOperations.all.first(where: { $0.name == operation }) else {
            throw ValidationError(
                "unknown operation '\(operation)'; known: \(CostOperations.all.map(\.name).joined(separator: ", "))")
        }
        // A small warm-up first, counted apart, so that most first-use costs fall outside both sizes.
        measurement.run(10, {}, {})
        callgrind_dump_stats_at("warm-up")
        for units in sizes {
            measurement.run(units, {}, {})
            callgrind_dump_stats_at("\(units) units")
        }
    }
}

/// Running the tool under callgrind.
enum Callgrind {
    /// A copy of this executable with its debug information stripped, in a new temporary folder.
    static func strippedCopy() throws -> URL {
        guard let executable = Bundle.main.executableURL else { throw ValidationError("cannot find this executable") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("instructions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("InstructionCounter")
        try FileManager.default.copyItem(at: executable, to: copy)
        try launch(["strip", "--strip-debug", copy.path])
        return copy
    }

    /// The instructions callgrind counts for each of the two sizes of `tool measure operation
    /// small large`, which has callgrind write its counts after the warm-up (`<out-file>.1`) and
    /// after each size (`.2`, `.3`), each dump counting from the one before.
    static func totals(of tool: URL, operation: String, sizes: [Int]) throws -> (small: Int, large: Int) {
        let output = tool.deletingLastPathComponent().appendingPathComponent("callgrind-\(UUID().uuidString).out")
        let dumps = (1...3).map { URL(fileURLWithPath: "\(output.path).\($0)") }
        defer { for file in [output] + dumps { try? FileManager.default.removeItem(at: file) } }
        // glibc's fastbins off, so that a count repeats (why: the report's method paragraph).
        try launch(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=\(output.path)", tool.path, "measure", operation]
                + sizes.map(String.init), environment: ["GLIBC_TUNABLES": "glibc.malloc.mxfast=0"])
        let counts = try dumps.dropFirst().map { dump in
            guard let text = try? String(contentsOf: dump, encoding: .utf8),
                let total = InstructionCounts.total(ofCallgrindOutput: text[...])
            else { throw ValidationError("callgrind wrote no count for \(operation) (\(dump.path))") }
            return total
        }
        return (counts[0], counts[1])
    }

    /// Runs a command found on the PATH, its output discarded, and fails unless it exits with 0.
    static func launch(_ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        do { try process.run() } catch {
            throw ValidationError("cannot run \(arguments[0]): \(error.localizedDescription)")
        }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ValidationError(
                "\(arguments.joined(separator: " ")) failed with status \(process.terminationStatus) "
                    + "(is \(arguments[0]) installed?):\n\(String(decoding: message.suffix(2_000), as: UTF8.self))")
        }
    }
}
