import APlusSuite
public import CompareKit
import CostOperations
import DesignRegistry
import Foundation

/// The README's first table, generated from the committed run: per design, the Promises/A+
/// result, the features that differ, and what a chain link and a pending promise cost. `compare`
/// rewrites it whenever it writes `Reports/`, and a test checks that the committed README holds
/// what the committed `benchmarks.json` renders.
public enum ReadmeTable {
    static let generated = GeneratedSection(
        beginMarker: "<!-- BEGIN generated from Reports/benchmarks.json by `swift run -c release compare render` -->")

    /// The table, markers included.
    public static func section(for report: BenchmarkReport) -> String {
        let chain = report.scenarios.first { $0.id == "chain" }
        let size = chain.flatMap { $0.result(at: $0.headlineSize) ?? $0.sizes.last }
        let adapter = Design.allCases[0].adapter
        let cases =
            APlusSuite.cases(for: adapter, options: .thenProperties).count + APlusSuite.additions(for: adapter).count
        let rows = Design.allCases.map { design in
            let facts = design.features
            let name = design.rawValue
            let time = size.flatMap { MarkdownReport.interval(name, in: $0) }.map(MarkdownReport.withInterval) ?? "—"
            let instructions =
                design.costs?.costOperations.first { $0.operation == design.costs?.chainLinkOperation }
                .map { Format.count($0.budget.instructions) } ?? "—"
            let memory = report.memory.first { $0.contender == name }.map {
                "\(Format.bytes($0.bytesPerPending)), \(Format.decimal($0.allocationsPerPending)) allocations"
            }
            return [
                "[\(name)](Implementations/\(design.moduleName)/README.md)", "\(cases) of \(cases)", facts.values,
                facts.starts, facts.cancels, facts.progress, time, instructions, memory ?? "—",
            ]
        }
        var md = generated.beginMarker + "\n"
        md += Format.table(
            [
                "Design", "Promises/A+", "Values", "Work starts", "Cancels", "Progress", "Time per chain link",
                "Instructions per chain link", "Heap per pending promise",
            ], leftAligned: 6, rows)
        md += "\nTime: the committed run's ratio to raw GCD, with its 95 % interval, on one machine "
        md += "(\(report.run.machine.label), \(report.run.date.prefix(10))); every recorded machine is in "
        md += "[benchmarks.md](Reports/benchmarks.md#across-runs-and-machines). Instructions: callgrind's count "
        md += "of a release build with glibc's fastbins off, so that a count repeats, checked in CI within 3 % "
        md += "([instructions.md](Reports/instructions.md)). Heap: "
        md += "bytes the allocator hands out for a pending promise with one `then`, and its allocations. "
        md += "Promises/A+: the 690 cases Swift can express of promises-aplus-tests and 12 more "
        md += "([conformance.md](Reports/conformance.md)).\n"
        return md + GeneratedSection.endMarker
    }

    /// `text` with its table replaced by `section`, or `nil` if `text` has no table.
    public static func splice(_ section: String, into text: String) -> String? {
        generated.replacing(in: text, with: section)
    }

    /// The table in `text`, markers included, or `nil`.
    public static func current(in text: String) -> String? { generated.current(in: text) }
}
