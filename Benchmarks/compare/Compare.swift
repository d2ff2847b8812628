import ArgumentParser
import CompareKit
import DesignRegistry
import Foundation
import ReportPolicy

/// `swift run -c release compare`: benchmarks every registered design beside the baselines and
/// peers, and regenerates `Reports/benchmarks.*`, its charts and the README's table.
///
/// The root command is the benchmark itself, so that `compare --help` lists its options.
@main
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Benchmark the promise designs against baselines and peers, and regenerate Reports/.",
        discussion: """
            With no subcommand, runs every scenario for every contender in \
            \(OutputFolder.Run.defaultProcesses) independent processes and writes benchmarks.json, \
            benchmarks.md, its SVG charts and the run's record in runs/ into Reports/ (the Promises/A+ \
            results are `swift test`'s). A narrowed run (--scenario, --design, --quick, --processes or \
            --repetitions, --as-built) writes to \(OutputFolder.partialRunFolder) unless --output names \
            another folder, and never into Reports/. Timings need an optimised build: a debug build of \
            compare builds and runs the release build of itself with the same arguments, unless told \
            --as-built.
            """,
        subcommands: [Render.self, Record.self]
    )

    @OptionGroup var options: BenchmarkOptions

    func run() throws { try options.run() }
}

extension Scenario: ExpressibleByArgument {}

/// The options of a benchmark run.
struct BenchmarkOptions: ParsableArguments {
    @Flag(help: "Small sizes and 3 repetitions: a smoke test of every scenario's correctness, not a measurement.")
    var quick = false

    @Flag(help: "A debug build runs itself, not the release build: a check of results and crashes, timing nothing.")
    var asBuilt = false

    @Option(
        name: .customLong("scenario"),
        help: "Run only this scenario (repeatable).")
    var scenarios: [Scenario] = []

    @Option(
        name: .customLong("design"),
        help:
            "Run only this contender (repeatable): \(allContenders.map(\.info.name).joined(separator: ", ")). GCD always runs: ratios need it."
    )
    var designs: [String] = []

    @Option(
        help: """
            Independent processes that each measure every cell (default \(OutputFolder.Run.defaultProcesses), \
            or 1 with --quick): the intervals need the spread between processes.
            """)
    var processes: Int?

    @Option(
        help:
            "Timed repetitions per cell in each process (default \(OutputFolder.Run.defaultRepetitions), or 3 with --quick)."
    )
    var repetitions: Int?

    /// Set by the parent in each process run it starts: measure, write the results here, exit.
    @Option(help: .hidden)
    var processRunOutput: String?

    /// Set by the parent: which process run this is (0, 1, …), so each shuffles in its own order.
    @Option(help: .hidden)
    var processRunIndex = 0

    /// Set by the parent: the child measures the memory per pending promise only, and no scenario.
    @Flag(help: .hidden)
    var processRunMemory = false

    @Option(
        help: """
            The folder the reports are written to (default: Reports for the full run, \
            \(OutputFolder.partialRunFolder) for a narrowed one; a narrowed run may not write Reports).
            """)
    var output: String?

    var outputRun: OutputFolder.Run {
        OutputFolder.Run(
            scenariosNamed: !scenarios.isEmpty, contendersNamed: !designs.isEmpty, quick: quick,
            processes: processes, repetitions: repetitions, asBuilt: asBuilt)
    }

    func validate() throws {
        if !missingContenders.isEmpty {
            let files = missingContenders.map { "Benchmarks/compare/Contenders/\($0.rawValue).swift" }
            throw ValidationError(
                "No contender for \(missingContenders.map(\.rawValue).joined(separator: ", ")): add "
                    + "\(files.joined(separator: ", ")) with `extension <Name>Adapter: ContendingDesign` "
                    + "(CONTRIBUTING.md#adding-a-design).")
        }
        for (option, value) in [("--repetitions", repetitions), ("--processes", processes)] {
            if let value, value < 1 { throw ValidationError("\(option) must be at least 1 (got \(value)).") }
        }
        let known = Set(allContenders.map { $0.info.name.lowercased() })
        for name in designs where !known.contains(name.lowercased()) {
            throw ValidationError(
                "Unknown contender '\(name)'. Known: \(allContenders.map(\.info.name).joined(separator: ", "))."
            )
        }
        do {
            _ = try OutputFolder.folder(explicit: output, for: outputRun)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// What every child of a run is given, before the scenario it measures and where it writes:
    /// the options that change what a cell measures.
    var childArguments: [String] {
        var arguments: [String] = []
        if quick { arguments.append("--quick") }
        if asBuilt { arguments.append("--as-built") }
        for design in designs { arguments += ["--design", design] }
        if let repetitions { arguments += ["--repetitions", String(repetitions)] }
        return arguments
    }

    /// For the subcommands, which only read `--output`: the benchmark's options would be accepted
    /// where they stand and silently ignored.
    func rejectBenchmarkOnlyOptions(for command: String) throws {
        if quick || asBuilt || !scenarios.isEmpty || !designs.isEmpty || processes != nil || repetitions != nil {
            throw ValidationError(
                "compare \(command) takes only --output; --quick, --as-built, --scenario, --design, --processes and "
                    + "--repetitions are for a benchmark run.")
        }
    }

    func run() throws {
        #if DEBUG
            // Timing debug code would publish numbers that measure the compiler's debug mode; told
            // --as-built, it runs as a check (CI's, on the build its tests use), and says so.
            if !asBuilt { throw ExitCode(try ReleaseBuild.run(arguments: Array(CommandLine.arguments.dropFirst()))) }
            let (invocation, debugBuild): (String, Bool?) = ("swift run compare", true)
        #else
            let (invocation, debugBuild): (String, Bool?) = ("swift run -c release compare", nil)
        #endif
        let wanted = Set(designs.map { $0.lowercased() })
        let plan = RunPlan(
            scenarios: scenarios.isEmpty ? Scenario.allCases : Scenario.allCases.filter(scenarios.contains),
            contenders: allContenders.filter {
                wanted.isEmpty || wanted.contains($0.info.name.lowercased()) || $0.info.name == "GCD"
            },
            repetitions: repetitions ?? (quick ? 3 : OutputFolder.Run.defaultRepetitions),
            warmups: 1,
            quick: quick,
            processRun: processRunIndex
        )
        if let processRunOutput {
            let part: ProcessRuns.Part = processRunMemory ? .memory : .scenarios
            runOffMain { try ProcessRuns.measure(plan, part: part, writingTo: processRunOutput) }
        }
        let output = try OutputFolder.folder(explicit: output, for: outputRun)
        let isFull = outputRun.isFull
        let processes = processes ?? (quick ? 1 : OutputFolder.Run.defaultProcesses)
        let arguments = Array(CommandLine.arguments.dropFirst())
        let command = ([invocation] + arguments).joined(separator: " ")
        let childArguments = self.childArguments
        runOffMain {
            try Reports.prepare(output)
            let started = ContinuousClock.now
            let runs = try ProcessRuns.run(processes, scenarios: plan.scenarios, arguments: childArguments)
            var report = try ProcessRuns.merge(runs)
            report.run = RunInfo(
                date: Provenance.now(),
                command: command,
                commit: Provenance.commit(),
                toolchain: Provenance.toolchain(),
                machine: Provenance.machine(),
                quick: plan.quick,
                processes: processes,
                repetitions: plan.repetitions,
                warmups: plan.warmups,
                durationSeconds: (ContinuousClock.now - started).seconds,
                peakRSSBytes: runs.map(\.run.peakRSSBytes).max() ?? 0,
                debugBuild: debugBuild
            )
            // Only a full run is a record: a narrowed one measured other things.
            var written: [String] = []
            if isFull { written.append(try Reports.writeRecord(RunRecord(report: report), to: output)) }
            written += try Reports.writeBenchmarks(report, to: output)
            print(TerminalSummary.text(for: report, files: written), terminator: "")
        }
    }
}

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rewrite benchmarks.md and its charts from benchmarks.json, without measuring.",
        discussion: """
            The folder is compare's --output (default Reports): `compare --output /tmp/x render`. \
            In a folder that holds design-review.md, its generated numbers are rewritten too.
            """
    )

    /// The root's options: `--output` names the folder (default Reports).
    @ParentCommand var compare: Compare

    func validate() throws { try compare.options.rejectBenchmarkOnlyOptions(for: Self._commandName) }

    func run() throws {
        let output = compare.options.output ?? OutputFolder.reports
        let folder = URL(fileURLWithPath: output)
        let report = try BenchmarkReport.decode(
            from: Data(contentsOf: folder.appendingPathComponent("benchmarks.json")))
        print("wrote:\n" + (try Reports.writeMarkdown(report, to: output)).map { "  \($0)\n" }.joined(), terminator: "")
    }
}

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add the record of a full run's benchmarks.json (from another machine, say) to runs/.",
        discussion: """
            The folder is compare's --output (default Reports): `compare record /tmp/x/benchmarks.json` \
            adds runs/<date>-<cpu>-<commit>.json there and rewrites benchmarks.md, whose section on what \
            holds across runs reads every record. A quick run is refused: it is a smoke test.
            """
    )

    @ParentCommand var compare: Compare

    @Argument(help: "The benchmarks.json of a full run.")
    var report: String

    func validate() throws { try compare.options.rejectBenchmarkOnlyOptions(for: Self._commandName) }

    func run() throws {
        let output = compare.options.output ?? OutputFolder.reports
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: report)) } catch {
            throw ValidationError("cannot read \(report): \(error.localizedDescription)")
        }
        let recorded = try BenchmarkReport.decode(from: data)
        guard !recorded.run.quick else {
            throw ValidationError("\(report) is a --quick run: a smoke test, not a record")
        }
        guard recorded.run.debugBuild != true else {
            throw ValidationError("\(report) is a debug build's run (--as-built): its times measure the debug mode")
        }
        guard recorded.run.processes > 1 else {
            throw ValidationError(
                "\(report) is a run of one process: its intervals would show one process's luck as the noise")
        }
        var written = [try Reports.writeRecord(RunRecord(report: recorded), to: output)]
        let current = URL(fileURLWithPath: output).appendingPathComponent("benchmarks.json")
        if let data = try? Data(contentsOf: current) {
            written += try Reports.writeMarkdown(try BenchmarkReport.decode(from: data), to: output)
        }
        print("wrote:\n" + written.map { "  \($0)\n" }.joined(), terminator: "")
    }
}

/// Writing the report files.
enum Reports {
    static func prepare(_ folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// Writes `benchmarks.json` and what `writeMarkdown` writes; returns the paths written.
    static func writeBenchmarks(_ report: BenchmarkReport, to folder: String) throws -> [String] {
        let url = URL(fileURLWithPath: folder)
        try report.jsonData().write(to: url.appendingPathComponent("benchmarks.json"))
        return ["\(folder)/benchmarks.json"] + (try writeMarkdown(report, to: folder))
    }

    /// Writes the run's record into `runs/`; returns its path.
    static func writeRecord(_ record: RunRecord, to folder: String) throws -> String {
        let runs = URL(fileURLWithPath: folder).appendingPathComponent(RunRecord.folderName)
        try FileManager.default.createDirectory(at: runs, withIntermediateDirectories: true)
        try record.jsonData().write(to: runs.appendingPathComponent(record.fileName))
        return "\(folder)/\(RunRecord.folderName)/\(record.fileName)"
    }

    /// Writes `benchmarks.md` and its charts, and the README's table when the folder is `Reports/`;
    /// returns the paths written.
    static func writeMarkdown(_ report: BenchmarkReport, to folder: String) throws -> [String] {
        let url = URL(fileURLWithPath: folder)
        let records = try RunRecord.all(in: url.appendingPathComponent(RunRecord.folderName))
        let root = ReleaseBuild.packageRoot
        let policy = RecordPolicy(root: root)
        let besideReports =
            url.standardizedFileURL == root.appendingPathComponent(OutputFolder.reports).standardizedFileURL
        let context = MarkdownReport.Context(
            evidence: Evidence(records: records, exclusion: policy.exclusion),
            targets: ProjectTargets.table,
            codeSinceRun: policy.codeSinceRun(report.run.commit).map { (RecordPolicy.codeSinceRunTitle, $0) },
            besideReports: besideReports,
            chartReferences: ProjectTargets.chartReferences)
        var written: [String] = []
        for file in MarkdownReport.files(for: report, context: context) {
            try Data(file.contents.utf8).write(to: url.appendingPathComponent(file.name))
            written.append("\(folder)/\(file.name)")
        }
        // The README's table quotes the committed run: rewrite it when this is that run.
        let readme = root.appendingPathComponent("README.md")
        if besideReports, let text = try? String(contentsOf: readme, encoding: .utf8),
            let updated = ReadmeTable.splice(ReadmeTable.section(for: report), into: text)
        {
            try Data(updated.utf8).write(to: readme)
            written.append("README.md (its generated table)")
        }
        return written
    }

    static func log(_ message: String) {
        FileHandle.standardError.write(Data("compare: \(message)\n".utf8))
    }
}

/// Runs `body` on a worker thread while the main thread services the main queue (some designs
/// default to it, and the A+ cases run on it); exits with 0 when `body` returns, 1 when it throws.
func runOffMain(_ body: @escaping @Sendable () throws -> Void) -> Never {
    let worker = Thread {
        do {
            try body()
            exit(0)
        } catch {
            Reports.log("error: \(error)")
            exit(1)
        }
    }
    worker.stackSize = 16 << 20
    worker.start()
    dispatchMain()
}
