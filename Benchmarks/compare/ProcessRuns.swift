import CompareKit
import Foundation

/// A run as several independent processes: for each process run, the parent starts this tool once
/// per scenario and once for the memory per pending promise, each child measures its cells and
/// writes its results to a file, and the parent merges them into one report whose cells keep their
/// samples per process run.
///
/// Processes, not more repetitions in one: a process's heap layout, code placement and thread
/// placement stay fixed for its lifetime, so repetitions inside one process share its luck and
/// understate how much a result moves from one run to the next.
///
/// A process per scenario, not one for all: what a scenario leaves behind moves the next one's
/// times. Raw GCD's `all` (10,000 blocks dispatched to a serial queue while the benchmark thread
/// dispatches them) costs about 350 ns per input when the queue's worker starts after the last
/// dispatch and about 1.1 µs when it drains them while they arrive (the two threads then contend
/// for the queue and the lock, input by input). Which happens depended on the state of
/// libdispatch's threads that the scenarios before had left: on an Intel Xeon, run alone it
/// overlapped in every sample, and after `single` it often did not; on an AMD EPYC the full run's
/// 444-812 ns against 317-373 ns alone. Every scenario now starts in a fresh process, as it would
/// run alone (Reports/benchmarks.md, "How it is measured").
enum ProcessRuns {
    /// What one child measures.
    enum Part {
        /// The scenarios of its plan (one, when the parent starts it).
        case scenarios
        /// The memory per pending promise, and no scenario.
        case memory
    }

    /// In a child: measures `part` of `plan` and writes the results to `path`.
    static func measure(_ plan: RunPlan, part: Part, writingTo path: String) throws {
        let harness = Harness(plan: plan)
        let scenarios = part == .scenarios ? try harness.measureScenarios() : []
        let memory = part == .memory ? try harness.measureMemory() : []
        let report = BenchmarkReport(
            run: RunInfo(
                date: Provenance.now(), command: "", commit: "", toolchain: "", machine: Provenance.machine(),
                quick: plan.quick, processes: 1, repetitions: plan.repetitions, warmups: plan.warmups,
                durationSeconds: 0, peakRSSBytes: peakResidentBytes()),
            contenders: plan.contenders.map(\.info),
            scenarios: scenarios,
            memory: memory)
        try report.jsonData().write(to: URL(fileURLWithPath: path))
    }

    /// Runs `count` process runs one after the other, each a child per scenario of `scenarios` and
    /// one for the memory, with `arguments`, and reads their results: one report per process run.
    static func run(_ count: Int, scenarios: [Scenario], arguments: [String]) throws -> [BenchmarkReport] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("compare-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let parts =
            scenarios.map { (name: $0.rawValue, arguments: ["--scenario", $0.rawValue]) }
            + [(name: "memory", arguments: ["--process-run-memory"])]
        return try (0..<count).map { index in
            Reports.log("process run \(index + 1) of \(count)")
            let reports = try parts.map { part -> BenchmarkReport in
                let result = folder.appendingPathComponent("run-\(index)-\(part.name).json")
                let child = Process()
                child.executableURL = executable
                child.arguments =
                    arguments + part.arguments
                    + ["--process-run-output", result.path, "--process-run-index", String(index)]
                try child.run()
                child.waitUntilExit()
                guard child.terminationStatus == 0 else {
                    throw BenchmarkError.invalidArgument(
                        "process run \(index + 1) of \(count), \(part.name), failed (status \(child.terminationStatus)); "
                            + "see its output above")
                }
                return try BenchmarkReport.decode(from: Data(contentsOf: result))
            }
            var joined = reports[0]
            joined.scenarios = reports.flatMap(\.scenarios)
            joined.memory = reports.flatMap(\.memory)
            joined.run.peakRSSBytes = reports.map(\.run.peakRSSBytes).max() ?? 0
            return joined
        }
    }

    /// One report of `runs`: each cell's samples per process run, in run order; build and fire
    /// samples pooled; allocations per unit and memory per pending promise the median over the
    /// runs (they are counts, equal up to another thread's stray allocation); metrics from the last.
    static func merge(_ runs: [BenchmarkReport]) throws -> BenchmarkReport {
        guard var merged = runs.first else { throw BenchmarkError.invalidArgument("no process run to merge") }
        for (scenarioIndex, scenario) in merged.scenarios.enumerated() {
            for (sizeIndex, size) in scenario.sizes.enumerated() {
                for (cellIndex, cell) in size.cells.enumerated() {
                    let all = try runs.map { run -> Cell in
                        guard
                            let other = run.scenarios.first(where: { $0.id == scenario.id })?
                                .result(at: size.size)?.cell(cell.contender)
                        else {
                            throw BenchmarkError.invalidArgument(
                                "a process run has no \(cell.contender) cell for \(scenario.id) N=\(size.size)")
                        }
                        return other
                    }
                    merged.scenarios[scenarioIndex].sizes[sizeIndex].cells[cellIndex] = Cell(
                        contender: cell.contender,
                        runs: all.flatMap(\.runs),
                        buildSamples: cell.buildSamples.map { _ in all.flatMap { $0.buildSamples ?? [] } },
                        fireSamples: cell.fireSamples.map { _ in all.flatMap { $0.fireSamples ?? [] } },
                        allocationsPerUnit: median(all.compactMap(\.allocationsPerUnit)),
                        metrics: all.last?.metrics)
                }
            }
        }
        merged.memory = merged.memory.map { memory in
            let all = runs.compactMap { $0.memory.first { $0.contender == memory.contender } }
            return MemoryResult(
                contender: memory.contender,
                bytesPerPending: median(all.map(\.bytesPerPending)) ?? memory.bytesPerPending,
                allocationsPerPending: median(all.map(\.allocationsPerPending)) ?? memory.allocationsPerPending)
        }
        return merged
    }

    private static func median(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : SampleSummary(values).median
    }
}
