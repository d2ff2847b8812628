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

    /// The contender that stands for async/await in every scenario.
    static let asyncAwait = "Swift concurrency"

    /// The table, markers included: a row per design, and one for async/await, the alternative the
    /// README weighs them against.
    public static func section(for report: BenchmarkReport) -> String {
        let chain = headline("chain", in: report)
        let workflow = headline("workflow", in: report)
        let adapter = Design.allCases[0].adapter
        let cases =
            APlusSuite.cases(for: adapter, options: .thenProperties).count + APlusSuite.additions(for: adapter).count
            + APlusSuite.threadCases(for: adapter).count
        func memory(_ contender: String) -> String? {
            report.memory.first { $0.contender == contender }.map {
                "\(Format.bytes($0.bytesPerPending)), \(Format.decimal($0.allocationsPerPending)) allocations"
            }
        }
        var rows = Design.allCases.map { design in
            let facts = design.features
            let name = design.rawValue
            let instructions =
                design.costs?.costOperations.first { $0.operation == design.costs?.chainLinkOperation }?
                .budget.instructions.map { Format.count($0) } ?? "—"
            return [
                "[\(name)](Implementations/\(design.moduleName)/README.md)", "\(cases) of \(cases)", facts.values,
                facts.starts, facts.cancels, facts.progress, instructions, memory(name) ?? "—", time(name, chain),
                time(name, workflow),
            ]
        }
        rows.append([
            "[async/await](#which-design-or-asyncawait)", "—", "typed", "at once", "yes, structured", "no",
            "—", memory(asyncAwait) ?? "—", time(asyncAwait, chain), time(asyncAwait, workflow),
        ])
        var md = generated.beginMarker + "\n"
        md += Format.table(
            [
                "Design", "Promises/A+", "Values", "Work starts", "Cancels", "Progress", "Instructions per chain link",
                "Heap per pending promise", "Time per chain link", "Time per user, contacts and avatars workflow",
            ], leftAligned: 6, rows)
        // The counts come first: they repeat on every machine, where the times move with the CPU.
        md += "\nInstructions and heap are the same on every x86_64 Linux machine; time moves with the CPU. "
        md += "Time (lower is better): the committed run's median per unit, then its ratio to raw GCD doing "
        md += "the same work with its 95 % interval, on one machine (\(report.run.machine.label), "
        md += "\(report.run.date.prefix(10))); raw GCD took \(gcdTime(chain)) per chain link and "
        md += "\(gcdTime(workflow)) per workflow (three requests in a row, then ten in parallel, each a hop to "
        md += "a concurrent queue and back). Every recorded machine is in "
        md += "[benchmarks.md](Reports/benchmarks.md#across-runs-and-machines). Instructions: callgrind's count "
        md += "of a release build with glibc's fastbins off, so that a count repeats, checked in CI within 3 % "
        md += "([instructions.md](Reports/instructions.md)); callgrind cannot run Swift concurrency's runtime. "
        md += "Heap: bytes the allocator hands out for a pending promise with one `then` (for async/await, a "
        md += "`Task` with one awaiting continuation), and its allocations. "
        md += "Promises/A+: the 690 cases Swift can express of promises-aplus-tests, 18 more and 6 for several "
        md += "threads ([conformance.md](Reports/conformance.md)).\n"
        return md + GeneratedSection.endMarker
    }

    /// A scenario's result at its headline size (or its largest), if it ran.
    static func headline(_ id: String, in report: BenchmarkReport) -> SizeResult? {
        let scenario = report.scenarios.first { $0.id == id }
        return scenario.flatMap { $0.result(at: $0.headlineSize) ?? $0.sizes.last }
    }

    /// "313 ns, 0.81× (0.67–0.97)": a contender's median per unit, and its ratio to raw GCD.
    static func time(_ contender: String, _ size: SizeResult?) -> String {
        guard let size, let cell = size.cell(contender) else { return "—" }
        let ratio = MarkdownReport.interval(contender, in: size).map(MarkdownReport.withInterval) ?? "—"
        return "\(Format.duration(cell.summary.median)), \(ratio)"
    }

    /// Raw GCD's median per unit.
    static func gcdTime(_ size: SizeResult?) -> String {
        size?.cell(MarkdownReport.referenceContender).map { Format.duration($0.summary.median) } ?? "—"
    }

    /// `text` with its table replaced by `section`, or `nil` if `text` has no table.
    public static func splice(_ section: String, into text: String) -> String? {
        generated.replacing(in: text, with: section)
    }

    /// The table in `text`, markers included, or `nil`.
    public static func current(in text: String) -> String? { generated.current(in: text) }
}
