import CompareKit
import Foundation

/// A run as several independent processes: the parent starts this tool once per process run with
/// the same options, each child measures every cell and writes its results to a file, and the
/// parent merges them into one report whose cells keep their samples per process run.
///
/// Processes, not more repetitions in one: a process's heap layout, code placement and thread
/// placement stay fixed for its lifetime, so repetitions inside one process share its luck and
/// understate how much a result moves from one run to the next.
enum ProcessRuns {
    /// In a child: measures `plan` and writes the results to `path`.
    static func measure(_ plan: RunPlan, writingTo path: String) throws {
        let harness = Harness(plan: plan)
        let scenarios = try harness.measureScenarios()
        let memory = try harness.measureMemory()
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

    /// Runs `count` children one after the other, each with `arguments`, and reads their results.
    static func run(_ count: Int, arguments: [String]) throws -> [BenchmarkReport] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("compare-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return try (0..<count).map { index in
            Reports.log("process run \(index + 1) of \(count)")
            let result = folder.appendingPathComponent("run-\(index).json")
            let child = Process()
            child.executableURL = executable
            child.arguments =
                arguments + ["--process-run-output", result.path, "--process-run-index", String(index)]
            try child.run()
            child.waitUntilExit()
            guard child.terminationStatus == 0 else {
                throw BenchmarkError.invalidArgument(
                    "process run \(index + 1) of \(count) failed (status \(child.terminationStatus)); see its output above"
                )
            }
            return try BenchmarkReport.decode(from: Data(contentsOf: result))
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
