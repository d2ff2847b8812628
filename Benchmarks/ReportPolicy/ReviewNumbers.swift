public import CompareKit
import Foundation

/// The design review's numbers (`Reports/design-review.md`), generated from a benchmark report so
/// that the review quotes only the committed run: `compare` rewrites the section between the
/// markers whenever it writes `benchmarks.md` into a folder that holds the review, and a test
/// checks that the committed review matches the committed `benchmarks.json`.
public enum ReviewNumbers {
    /// The marker that opens the generated section.
    public static let beginMarker = generated.beginMarker
    /// The marker that closes it.
    public static let endMarker = GeneratedSection.endMarker
    /// The generated section of `design-review.md`.
    static let generated = GeneratedSection(
        beginMarker: "<!-- BEGIN generated from benchmarks.json by `swift run -c release compare render` -->")

    /// The scenarios the table shows, with the unit each row is per.
    static let rows: [(scenario: String, label: String)] = [
        ("single", "single (one promise, one block)"),
        ("chain", "chain link"),
        ("errors", "error passed along a link"),
        ("all", "`all` input"),
        ("fan-out", "fan-out observer"),
        ("workflow", "workflow (one user: 3 service calls and the avatars)"),
        ("checkout", "checkout (one order: order, pay, check)"),
    ]

    /// The generated section, markers included: per design and peer, the median time per unit over
    /// the run's sizes (a range when there are several) and the ratio to raw GCD at the headline
    /// size, then the memory of a pending promise with one `then`.
    public static func section(for report: BenchmarkReport) -> String {
        let columns = report.contenders.filter { $0.kind == .design || $0.kind == .peer }.map(\.name)
        var md = beginMarker + "\n"
        md += "From the committed run (\(report.run.date), \(report.run.machine.cores) cores; "
        md += "[benchmarks.md](benchmarks.md)): the median time per unit over the run's sizes, and in "
        md += "parentheses the ratio to raw GCD at the scenario's headline size with its 95 % interval.\n\n"
        md += "| Per unit | " + columns.joined(separator: " | ") + " |\n"
        md += "|---|" + String(repeating: "---:|", count: columns.count) + "\n"
        for row in rows {
            guard let scenario = report.scenarios.first(where: { $0.id == row.scenario }) else { continue }
            md += "| \(row.label) | "
            md += columns.map { cell($0, in: scenario) }.joined(separator: " | ") + " |\n"
        }
        md += "| pending promise + `then` | "
        md += columns.map { name in
            guard let memory = report.memory.first(where: { $0.contender == name }) else { return "—" }
            return "\(Format.bytes(memory.bytesPerPending)), \(Format.decimal(memory.allocationsPerPending)) allocs"
        }.joined(separator: " | ")
        md += " |\n"
        return md + endMarker
    }

    /// "0.71–0.90 µs (3.0×; 2.8–3.3)", or "—" when the contender did not run the scenario.
    static func cell(_ contender: String, in scenario: ScenarioResult) -> String {
        let medians = scenario.sizes.compactMap { $0.cell(contender)?.summary.median }
        guard let low = medians.min(), let high = medians.max() else { return "—" }
        let low3 = Format.duration(low)
        let high3 = Format.duration(high)
        var time = low3 == high3 ? low3 : "\(low3)–\(high3)"
        // "0.71 µs–0.90 µs" reads as "0.71–0.90 µs" when both have the same unit.
        if low3 != high3, let unit = low3.split(separator: " ").last, high3.hasSuffix(" " + unit) {
            time = "\(low3.dropLast(unit.count + 1))–\(high3)"
        }
        let headline = scenario.result(at: scenario.headlineSize) ?? scenario.sizes.last
        guard let headline, let ratio = MarkdownReport.ratio(contender, in: headline) else { return time }
        guard let interval = MarkdownReport.interval(contender, in: headline) else {
            return "\(time) (\(Format.ratio(ratio)))"
        }
        return "\(time) (\(Format.ratio(ratio)); \(Format.ratioRange(interval.low, interval.high)))"
    }

    /// `text` with its generated section replaced by `section`, or `nil` if `text` has no section.
    public static func splice(_ section: String, into text: String) -> String? {
        generated.replacing(in: text, with: section)
    }

    /// The generated section of `text`, markers included, or `nil`.
    public static func currentSection(in text: String) -> String? { generated.current(in: text) }
}
