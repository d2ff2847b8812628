/// What a run of `compare` prints when it ends: the time per unit of raw GCD at each scenario's
/// headline size, every contender's ratio to it there (lower is better), and the files written.
///
/// ```text
/// compare: time per unit as a ratio to raw GCD, at each scenario's headline size (lower is better)
/// scenario            N       GCD        Direct  FBL    …
/// chain               10,000  182 ns     0.11×   2.78×  …
/// ```
public enum TerminalSummary {
    /// The summary of `report`, with `files` (the paths written) at the end.
    public static func text(for report: BenchmarkReport, files: [String]) -> String {
        let names = report.contenders.map(\.name).filter { $0 != MarkdownReport.referenceContender }
        var rows: [[String]] = [["scenario", "N", "unit", "GCD per unit"] + names]
        for scenario in report.scenarios {
            guard let size = scenario.result(at: scenario.headlineSize) ?? scenario.sizes.last else { continue }
            let reference = size.cell(MarkdownReport.referenceContender).map { Format.duration($0.summary.median) }
            rows.append(
                [scenario.id, Format.count(size.size), scenario.unit, reference ?? "—"]
                    + names.map { name in MarkdownReport.ratio(name, in: size).map(Format.ratio) ?? "—" })
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = [
            "time per unit as a ratio to raw GCD, at each scenario's headline size (lower is better; — sits out)"
        ]
        if report.run.debugBuild == true {
            lines.append("a debug build (--as-built): the times measure its debug mode")
        }
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column < 3 ? cell + padding : padding + cell
            }
            lines.append(cells.joined(separator: "  "))
        }
        lines.append("wrote:")
        lines += files.map { "  \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }
}
