import ArgumentParser
import CallgrindDump
import Dispatch
import Foundation
import Synchronization

/// The instruction runner: counts each operation's instructions under valgrind's callgrind and
/// checks them against their budgets; prints a table with each count's ratio to raw GCD's,
/// counted in the same run, and where this project's designs stand.
///
/// Call it from the `main` of an executable target of its own, and run that in a release build:
///
/// ```swift
/// import MyPromiseCosts  // the target with the adapter and the budgets
/// import PromiseCosts
///
/// @main
/// enum MyPromiseInstructions {
///     static func main() { InstructionCountingTool.main(MyPromiseCosts.operations) }
/// }
/// ```
///
/// `swift run -c release MyPromiseInstructions` counts every operation, and raw GCD's chain link
/// and fan-out observer beside them; `--only <text>` (repeatable) counts the operations whose name
/// contains it, `--report <file>` writes the table as Markdown too, `--sizes <small> <large>`
/// changes the two sizes. It exits with 1 when a count is more than
/// ``InstructionCounts/tolerance`` over or under its budget, in the median of three counts.
///
/// Each operation runs in a process of its own under callgrind, after a warm-up, at two sizes one
/// after the other, and the tool has callgrind write its counts after each: the difference of the
/// two counts over the difference of the sizes is one unit's cost, in which one-time costs cancel.
/// callgrind runs a copy of the tool with its debug information stripped (valgrind 3.19 cannot
/// read the DWARF 5 this toolchain writes), with glibc's fastbins off, so that a count repeats.
///
/// What it cannot count, it says, and ends with a message rather than a crash: a machine without
/// valgrind; a debug build (whose counts say nothing about a release build's); an operation that
/// valgrind stops on, as it can on a program that runs Swift concurrency's runtime.
public enum InstructionCountingTool {
    /// Runs the tool over `measurements` (raw GCD's operations are added unless present) with the
    /// process's arguments, and exits.
    ///
    /// - Parameters:
    ///   - measurements: The operations to count, with their budgets.
    ///   - showsDesigns: Whether the table ends with this project's designs' counts
    ///     (``DesignCounts``), for comparison.
    ///   - reportNotes: Paragraphs the Markdown report adds after its method paragraph.
    public static func main(
        _ measurements: [CountedOperation], showsDesigns: Bool = true, reportNotes: String = ""
    )
        -> Never
    {
        // Raw GCD's operations, unless the caller brings its own (with budgets).
        let all = measurements.contains { $0.library == "GCD" } ? measurements : RawGCD.operations() + measurements
        // The counted process runs the operation and nothing of the tool's: no argument parsing,
        // no settings. The runtime's caches of generic types are shared by the whole process, so
        // what ran before moves a count: one design's key-value observation counted 1.7 % more with the
        // argument parser run first in the counted process.
        let arguments = CommandLine.arguments
        if arguments.count >= 3, arguments[1] == MeasureOne.name {
            MeasureOne.run(arguments[2], sizes: arguments.dropFirst(3).compactMap { Int($0) }, in: all)
        }
        ToolSettings.current.withLock {
            $0 = ToolSettings(measurements: all, showsDesigns: showsDesigns, notes: reportNotes)
        }
        InstructionCountingCommand.main()
        exit(0)
    }

    /// The budgets of `measurements`, where a budget can be checked: x86_64 Linux, for which the
    /// budgets are written; elsewhere the counts differ and none is checked.
    static func budgets(of measurements: [CountedOperation]) -> [String: Int] {
        #if arch(x86_64) && os(Linux)
            return Dictionary(
                measurements.compactMap { op in op.budget.instructions.map { (op.name, $0) } },
                uniquingKeysWith: { first, _ in first })
        #else
            return [:]
        #endif
    }
}

/// What the executable's `main` handed the command.
struct ToolSettings: Sendable {
    var measurements: [CountedOperation] = []
    var showsDesigns = true
    var notes = ""

    static let current = Mutex(ToolSettings())
    static var value: ToolSettings { current.withLock { $0 } }
}

struct InstructionCountingCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: (CommandLine.arguments[0] as NSString).lastPathComponent,
            abstract: "Count each operation's instructions under callgrind and check the budgets.",
            discussion: """
                Needs valgrind and strip on the PATH and a release build (swift run -c release \
                <this tool>). Exits with 1 when a count is more than \
                \(Int(InstructionCounts.tolerance * 100)) % over or under its budget.
                """,
            subcommands: [CountInstructions.self],
            defaultSubcommand: CountInstructions.self
        )
    }
}

/// Counts every operation and checks it against its budget.
struct CountInstructions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Count every operation and check the budgets (the default).")

    @Option(help: "Also write the counts as a Markdown table to this file.")
    var report: String?

    @Option(help: "Count only the operations whose name contains this (repeatable): \"chain link\".")
    var only: [String] = []

    @Option(parsing: .upToNextOption, help: "The two sizes, in units, whose difference is counted.")
    var sizes: [Int] = [1_000, 3_000]

    func validate() throws {
        guard sizes.count == 2, sizes[0] > 0, sizes[1] > sizes[0] else {
            throw CountingError("--sizes takes two sizes, the second the larger (got \(sizes)).")
        }
        guard callgrind_dump_is_available() else {
            throw CountingError(
                "cannot count instructions here: this build has no valgrind/callgrind.h (install valgrind, then rebuild)"
            )
        }
        #if DEBUG
            throw CountingError(
                "this is a debug build, whose counts say nothing about a release build's: count a release build "
                    + "(swift run -c release \((CommandLine.arguments[0] as NSString).lastPathComponent)).")
        #endif
    }

    func run() throws {
        let settings = ToolSettings.value
        let matched = settings.measurements.filter { op in only.isEmpty || only.contains { op.name.contains($0) } }
        guard !matched.isEmpty else { throw CountingError("no operation matches \(only)") }
        // Raw GCD's operations are always counted: the ratios are to them, on this machine.
        let matchedNames = Set(matched.map(\.name))
        let wanted = settings.measurements.filter { $0.library == "GCD" || matchedNames.contains($0.name) }
        let tool = try Callgrind.strippedCopy()
        defer { try? FileManager.default.removeItem(at: tool.deletingLastPathComponent()) }
        let budgets = InstructionCountingTool.budgets(of: settings.measurements)
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
        var rows: [InstructionRow] = []
        for (operation, result) in zip(wanted, counted.withLock { $0 }) {
            let perUnit = try result.get()
            rows.append(
                InstructionRow(
                    measurement: operation, perUnit: perUnit,
                    check: InstructionCounts.check(perUnit, budget: budgets[operation.name])))
        }
        let table = InstructionTable(rows: rows, budgets: budgets, showsDesigns: settings.showsDesigns)
        print(table.text())
        if let report {
            try Data(table.markdown(sizes: sizes, notes: settings.notes, reportPath: report).utf8)
                .write(to: URL(fileURLWithPath: report))
        }
        let failures = rows.filter(\.check.isOffBudget).map { row in
            let budget = Double(budgets[row.measurement.name] ?? 1)
            return "\(row.measurement.name) (\(String(format: "%+.1f", (row.perUnit / budget - 1) * 100)) %)"
        }
        if !failures.isEmpty {
            // The table first, then the verdict, in that order even when both go to one file.
            fflush(nil)  // every open output stream, standard output among them
            FileHandle.standardError.write(
                Data(
                    """

                    \(InstructionCountingCommand.configuration.commandName ?? "the tool"): \(failures.count) \
                    operation(s) off budget by more than \(Int(InstructionCounts.tolerance * 100)) %: \
                    \(failures.joined(separator: ", ")); change the code back, or the budget in the commit \
                    that changes the cost

                    """.utf8))
            throw ExitCode.failure
        }
    }
}

/// Runs one operation at each size in turn, callgrind's counts written after the warm-up and after
/// each size: what `check` runs under callgrind, as `<tool> measure <operation> <small> <large>`.
enum MeasureOne {
    static let name = "measure"

    static func run(_ operation: String, sizes: [Int], in measurements: [CountedOperation]) -> Never {
        guard let measurement = measurements.first(where: { $0.name == operation }), !sizes.isEmpty else {
            FileHandle.standardError.write(
                Data(
                    ("\(CommandLine.arguments[0]) measure: unknown operation '\(operation)' or no sizes; known: "
                        + measurements.map(\.name).joined(separator: ", ") + "\n").utf8))
            exit(64)
        }
        // A small warm-up first, counted apart, so that most first-use costs fall outside both sizes.
        measurement.run(10, {}, {})
        callgrind_dump_stats_at("warm-up")
        for units in sizes {
            measurement.run(units, {}, {})
            callgrind_dump_stats_at("\(units) units")
        }
        exit(0)
    }
}

/// Running the tool under callgrind.
enum Callgrind {
    /// A copy of this executable with its debug information stripped, in a new temporary folder.
    static func strippedCopy() throws -> URL {
        guard let executable = Bundle.main.executableURL else { throw CountingError("cannot find this executable") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("instructions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent(executable.lastPathComponent)
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
        // glibc's fastbins off: with them, whether a large allocation first consolidates the small
        // chunks freed before depends on which thread freed them, and a count moved by 6 %
        // between runs of one binary; without them, runs agree within about 1 %.
        try launch(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=\(output.path)", tool.path, "measure", operation]
                + sizes.map(String.init), environment: ["GLIBC_TUNABLES": "glibc.malloc.mxfast=0"],
            failure: """
                valgrind stopped while counting '\(operation)'; valgrind 3.19 can stop on a program that runs \
                Swift concurrency's runtime: if the operation does, leave it out with --only
                """)
        let counts = try dumps.dropFirst().map { dump in
            guard let text = try? String(contentsOf: dump, encoding: .utf8),
                let total = InstructionCounts.total(ofCallgrindOutput: text[...])
            else { throw CountingError("callgrind wrote no count for \(operation) (\(dump.path))") }
            return total
        }
        return (counts[0], counts[1])
    }

    /// Runs a command found on the PATH, its output discarded, and fails unless it exits with 0,
    /// saying `failure` when it started and failed.
    static func launch(_ arguments: [String], environment: [String: String] = [:], failure: String? = nil) throws {
        #if os(Linux) || os(macOS)
            try launchProcess(arguments, environment: environment, failure: failure)
        #else
            throw CountingError("cannot count instructions here: this system cannot run valgrind")
        #endif
    }

    #if os(Linux) || os(macOS)
        static func launchProcess(_ arguments: [String], environment: [String: String], failure: String?) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
            process.standardOutput = FileHandle.nullDevice
            let errors = Pipe()
            process.standardError = errors
            do { try process.run() } catch {
                throw CountingError("cannot run \(arguments[0]): \(error.localizedDescription)")
            }
            let message = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                // `env` exits with 127 when it cannot find the command.
                if process.terminationStatus == 127 {
                    throw CountingError(
                        "cannot count instructions here: \(arguments[0]) is not on the PATH (install it)")
                }
                throw CountingError(
                    (failure.map { $0 + "\n" } ?? "")
                        + "\(arguments.prefix(3).joined(separator: " ")) … failed with status \(process.terminationStatus):\n"
                        + String(decoding: message.suffix(2_000), as: UTF8.self))
            }
        }
    #endif
}

/// Why the instruction runner could not count, in a sentence the command line prints before it
/// exits with a failure status.
struct CountingError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
