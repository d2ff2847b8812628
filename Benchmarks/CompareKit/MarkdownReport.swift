import Foundation

/// Turns a ``BenchmarkReport`` into `benchmarks.md` and its SVG charts.
///
/// A pure function of the report, so the committed Markdown can always be regenerated from the
/// committed JSON, and golden files can pin the output.
public enum MarkdownReport {
    /// The contender every ratio is taken against.
    public static let referenceContender = "GCD"

    /// What a report shows beside its own run.
    public struct Context: Sendable {
        /// The recorded full runs (`Reports/runs/`), oldest first, for the section on what holds
        /// across runs and machines; none for a narrowed run.
        public var evidence: Evidence
        /// The designs' goals; none for a narrowed run.
        public var targets: TargetTable
        /// The run-table row on what changed in the designs' code since the run, when known.
        public var codeSinceRun: (title: String, text: String)?
        /// Whether the report sits beside the other reports (`Reports/`), so it may link them.
        public var besideReports: Bool
        /// The contenders the charts show beside the designs, at most two (the tables show all):
        /// on the ratio chart as bars (raw GCD is its dashed line), on the growth charts as lines.
        public var chartReferences: (ratios: [String], growth: [String])

        public init(
            evidence: Evidence = Evidence(records: []), targets: TargetTable = .none,
            codeSinceRun: (title: String, text: String)? = nil, besideReports: Bool = false,
            chartReferences: (ratios: [String], growth: [String]) = ([], [referenceContender])
        ) {
            self.evidence = evidence
            self.targets = targets
            self.codeSinceRun = codeSinceRun
            self.besideReports = besideReports
            self.chartReferences = (Array(chartReferences.ratios.prefix(2)), Array(chartReferences.growth.prefix(2)))
        }
    }

    /// Every file of the report: `benchmarks.md` and the charts it embeds, by file name.
    public static func files(
        for report: BenchmarkReport, context: Context = Context()
    )
        -> [(name: String, contents: String)]
    {
        var files: [(name: String, contents: String)] = [
            ("benchmarks.md", markdown(for: report, context: context))
        ]
        if let bars = ratioChart(for: report, references: context.chartReferences.ratios) {
            files.append(("benchmarks-ratios.svg", bars))
        }
        for scenario in report.scenarios where scenario.isCurve && scenario.sizes.count > 1 {
            files.append(
                (
                    "benchmarks-\(scenario.id).svg",
                    growthChart(for: scenario, report: report, references: context.chartReferences.growth)
                ))
        }
        return files
    }

    /// The ratio of `contender`'s median to raw GCD's median on the same scenario and size.
    public static func ratio(_ contender: String, in size: SizeResult) -> Double? {
        guard let cell = size.cell(contender), let reference = size.cell(referenceContender) else { return nil }
        let base = reference.summary.median
        return base > 0 ? cell.summary.median / base : nil
    }

    /// `contender`'s ratio to raw GCD on one size with its 95 % interval (``Bootstrap``), or `nil`
    /// when either did not run.
    public static func interval(_ contender: String, in size: SizeResult) -> Interval? {
        interval(contender, over: referenceContender, in: size)
    }

    /// `contender`'s time over `yardstick`'s on one size with its 95 % interval, from the process
    /// runs that measured both (the same numbers a run record gives).
    public static func interval(_ contender: String, over yardstick: String, in size: SizeResult) -> Interval? {
        guard let cell = size.cell(contender), let other = size.cell(yardstick) else { return nil }
        return Bootstrap.pairedRatio(
            (contender, cell.runs), over: (yardstick, other.runs), context: [String(size.size), String(size.units)])
    }

    /// The designs' places on one size: ranks that only separate what paired intervals separate.
    public static func places(_ designs: [String], in size: SizeResult) -> [Ranking.Place] {
        Ranking.places(
            designs, reference: { ratio($0, in: size) }, paired: { interval($0, over: $1, in: size) })
    }

    /// Whether a run's intervals mean what the report says: several process runs of a full-size
    /// run. One process's repetitions share its luck, a quick run measures too little, and a debug
    /// build measures its debug mode.
    static func hasIntervals(_ report: BenchmarkReport) -> Bool {
        report.run.processes > 1 && !report.run.quick && report.run.debugBuild != true
    }

    /// "1.53× (1.41–1.66)".
    public static func withInterval(_ interval: Interval) -> String {
        "\(Format.ratio(interval.value)) (\(Format.ratioRange(interval.low, interval.high)))"
    }

    /// A contender's ratio to raw GCD with its interval, or without one for a run that has none;
    /// "—" when it did not run.
    static func ratioText(_ contender: String, in size: SizeResult, intervals: Bool) -> String {
        if intervals { return interval(contender, in: size).map(withInterval) ?? "—" }
        return ratio(contender, in: size).map(Format.ratio) ?? "—"
    }

    // MARK: Markdown

    static func markdown(for report: BenchmarkReport, context: Context = Context()) -> String {
        var md = "# Benchmarks\n\n"
        md +=
            "<!-- Generated by `swift run -c release compare` from benchmarks.json; edits here are overwritten. -->\n\n"
        md += runSection(report, codeSinceRun: context.codeSinceRun)
        md += summarySection(report)
        if hasIntervals(report) {
            md += rankingSection(report)
            md += acrossRunsSection(report, evidence: context.evidence)
            md += targetsSection(report, targets: context.targets, linkPerformance: context.besideReports)
        }
        md += memorySection(report)
        md += "## Scenarios\n\n"
        for (index, scenario) in report.scenarios.enumerated() {
            md += scenarioSection(scenario, number: index + 1, report: report)
        }
        md += contendersSection(report)
        md += methodSection(report)
        return md
    }

    static func runSection(_ report: BenchmarkReport, codeSinceRun: (title: String, text: String)? = nil) -> String {
        let run = report.run
        var md = ""
        if run.debugBuild == true {
            md += "> **Debug build** (`--as-built`): every result was checked, but the times measure the "
            md += "compiler's debug mode. It shows ratios without intervals, ranks or targets: draw no conclusions.\n\n"
        } else if run.quick {
            md += "> **Quick run** (`--quick`): small sizes and few repetitions, a smoke test of every result. "
            md += "It shows ratios without intervals, ranks or targets: draw no conclusions from it.\n\n"
        } else if run.processes == 1 {
            md += "> **One process run**: its repetitions share one process's luck, so the report shows "
            md += "ratios without intervals, ranks or targets. Run with `--processes 3` or more to compare.\n\n"
        }
        let machine = run.machine
        let rows = [
            ["Date", run.date], ["Command", "`\(run.command)`"], ["Commit", "`\(run.commit)`"],
        ]
        let since = codeSinceRun.map { [[$0.title, $0.text]] } ?? []
        let more = [
            ["Toolchain", run.toolchain],
            [
                "Machine",
                "\(machine.os); \(machine.cpu); \(machine.cores) cores; \(Format.bytes(Double(machine.memoryBytes)))",
            ],
            [
                "Repetitions",
                "\(run.processes) process run\(run.processes == 1 ? "" : "s"), each with \(run.warmups) warm-up + "
                    + "\(run.repetitions) timed per cell, interleaved across contenders",
            ],
            [
                "Duration",
                "\(Format.duration(run.durationSeconds)); peak RSS \(Format.bytes(Double(run.peakRSSBytes)))",
            ],
        ]
        return md + Format.table(["Run", ""], leftAligned: 2, rows + since + more) + "\n"
    }

    static func summarySection(_ report: BenchmarkReport) -> String {
        let names = report.contenders.map(\.name)
        let intervals = hasIntervals(report)
        var md = "## Summary: time per unit as a ratio to raw GCD (lower is better)\n\n"
        md +=
            intervals
            ? "The ratio of the medians, and in parentheses its 95 % confidence interval over the process runs "
                + "(see [How it was measured](#how-it-was-measured)).\n\n"
            : "The ratio of the medians.\n\n"
        md += Format.table(
            ["Scenario"] + names,
            report.scenarios.compactMap { scenario in
                guard let size = scenario.result(at: scenario.headlineSize) ?? scenario.sizes.last else { return nil }
                return ["\(scenario.title) (N = \(Format.count(size.size)))"]
                    + names.map { name in ratioText(name, in: size, intervals: intervals) }
            })
        md += "\n— : the contender has no such operation (see the scenario's notes).\n\n"
        if report.scenarios.contains(where: { !$0.isCurve }) { md += "![Ratios to raw GCD](benchmarks-ratios.svg)\n\n" }
        return md
    }

    static func targetsSection(_ report: BenchmarkReport, targets: TargetTable, linkPerformance: Bool) -> String {
        let designs = report.contenders.filter { $0.kind == .design && targets.limits[$0.name] != nil }.map(\.name)
        guard !designs.isEmpty else { return "" }
        var md = "## Targets\n\n"
        md += "Each design's goals, checked here and never in tests. Every limit is a ratio to raw GCD or "
        md += "to another contender in the same run: a limit named after a contender (≤ NIO, or 1.3 × another "
        md += "design) is that contender's ratio, scaled, and is judged on the interval of the design's time over that "
        md += "contender's. A limit is met when the whole 95 % interval is at or below it, missed when the whole "
        md += "interval is above it, and undecided when it falls inside the interval. Each cell: the measured "
        md += "ratio and its interval, then each limit with its mark; — where the design has no goal for the "
        md += "scenario.\n\n"
        let rows = designs.compactMap { design -> [String]? in
            guard let limits = targets.limits[design] else { return nil }
            let cells = targets.scenarios.map { targetCell(design, scenario: $0, limits: limits, in: report) }
            guard let memory = report.memory.first(where: { $0.contender == design }) else {
                return [design] + cells + ["—", "—"]
            }
            return [design] + cells + [
                memoryCell(memory.bytesPerPending, limit: limits.bytesPerPending, resolution: 1, format: Format.bytes),
                memoryCell(
                    memory.allocationsPerPending, limit: limits.allocationsPerPending, resolution: 0.1,
                    format: Format.decimal),
            ]
        }
        md += Format.table(["Design"] + targets.scenarios + ["bytes per pending", "allocations per pending"], rows)
        md += "\n✅ met, ❌ missed, ❔ undecided (the limit lies inside the interval: the run cannot tell)."
        if linkPerformance { md += " Where each design's cost goes is in [performance.md](performance.md)." }
        return md + "\n\n"
    }

    /// A memory cell of the targets table: "✅ 180 B (≤ 200 B)", or the measure alone when the
    /// design has no limit. The mark judges the value as shown, at `resolution`: a few allocations by another thread inside the measuring window
    /// make 10,000 promises' 6 allocations each read 6.0002, which the cell shows as "6" and must
    /// not mark as over a limit of 6.
    static func memoryCell(
        _ measured: Double, limit: Double, resolution: Double, format: (Double) -> String
    ) -> String {
        guard limit.isFinite else { return format(measured) }
        let shown = (measured / resolution).rounded() * resolution
        return "\(shown <= limit ? Verdict.met.mark : Verdict.missed.mark) \(format(measured)) (≤ \(format(limit)))"
    }

    /// One scenario's cell of the targets table: "2.62× (2.4–2.8) ❌ ≤ 1.50×, ❔ ≤ NIO 2.70×", or "—"
    /// when the scenario has no limit for the design or was not measured.
    static func targetCell(
        _ design: String, scenario id: String, limits: TargetTable.Limits, in report: BenchmarkReport
    )
        -> String
    {
        guard let scenario = report.scenarios.first(where: { $0.id == id }),
            let size = scenario.result(at: scenario.headlineSize) ?? scenario.sizes.last,
            let measured = interval(design, in: size)
        else { return "—" }
        var checks: [String] = []
        if let limit = limits.ratios[id] {
            checks.append("\(Verdict(measured, limit: limit).mark) ≤ \(Format.ratio(limit))")
        }
        if let relative = limits.relative[id], let yardstick = ratio(relative.contender, in: size),
            let overYardstick = interval(design, over: relative.contender, in: size)
        {
            let name =
                relative.factor == 1 ? relative.contender : "\(Format.decimal(relative.factor)) × \(relative.contender)"
            let verdict = Verdict(overYardstick, limit: relative.factor)
            checks.append("\(verdict.mark) ≤ \(name) \(Format.ratio(relative.factor * yardstick))")
        }
        guard !checks.isEmpty else { return "—" }
        return "\(withInterval(measured)) " + checks.joined(separator: ", ")
    }

    /// Per scenario, the designs' ranks at the headline size, and the pairs the run cannot tell
    /// apart.
    static func rankingSection(_ report: BenchmarkReport) -> String {
        let designs = report.contenders.filter { $0.kind == .design }.map(\.name)
        guard designs.count > 1 else { return "" }
        var md = "## Ranking of the designs\n\n"
        md += "Per scenario at its headline size, lowest time first. Two designs are compared by the 95 % "
        md += "interval of one's time over the other's, bootstrapped from the process runs that measured both "
        md += "side by side; a design's rank is one more than the number of designs faster than it beyond the "
        md += "noise (the interval wholly below 1). Designs the run cannot tell apart (the interval holds 1) "
        md += "can share a rank, and the last column names every such tie.\n\n"
        let rows = report.scenarios.compactMap { scenario -> [String]? in
            guard let size = scenario.result(at: scenario.headlineSize) ?? scenario.sizes.last else { return nil }
            let places = places(designs, in: size)
            guard places.count > 1 else { return nil }
            let ties = Ranking.ties(places) { interval($0, over: $1, in: size) }.map { "\($0.0) = \($0.1)" }
            return [scenario.title, Ranking.text(places), ties.isEmpty ? "none" : ties.joined(separator: ", ")]
        }
        return md + Format.table(["Scenario", "Ranks", "Ties (the paired interval holds 1)"], leftAligned: 3, rows)
            + "\n"
    }

    /// The recorded runs: the designs' ranks in each, the orders that hold in all of them, and
    /// each contender's ratio to raw GCD on each machine.
    static func acrossRunsSection(_ report: BenchmarkReport, evidence: Evidence) -> String {
        let records = evidence.records
        guard !records.isEmpty else { return "" }
        var md = "## Across runs and machines\n\n"
        md += "Every full run keeps a record in [runs/](runs): machine, commit, toolchain, date and every "
        md += "contender's samples at each scenario's headline size, so any two designs can be compared in "
        md += "any record as in the ranking above. A record is left out of a comparison when the code of a "
        md += "design it compares has changed since it ran, or when what the tool measures for a contender "
        md += "has.\n\n"
        md += Format.table(
            ["Run", "Machine", "Commit", "Processes"], leftAligned: 3,
            records.enumerated().map { index, record in
                let run = record.run
                return ["\(index + 1): \(run.date)", run.machine.label, "`\(run.commit)`", "\(run.processes)"]
            })
        md += "\nPer scenario, the designs' ranks in each run, then what holds in every run that can speak for "
        md += "both designs: an order beyond the noise in all of them, or one that reverses between runs. A "
        md += "pair not named is a tie in at least one run.\n\n"
        var rows: [[String]] = []
        for scenario in report.scenarios {
            let ranks = records.map { record -> String in
                guard let measured = record.scenario(scenario.id) else { return "—" }
                let places = Ranking.places(
                    record.designs, reference: { measured.ratio($0, over: referenceContender)?.value },
                    paired: { measured.ratio($0, over: $1) })
                return places.isEmpty ? "—" : Ranking.text(places)
            }
            let findings = evidence.findings(scenario: scenario.id).map { finding in
                switch finding {
                case .alwaysBelow(let low, let high): return "\(low) < \(high)"
                case .reversed(let first, let second): return "\(first) and \(second) reverse"
                }
            }
            rows.append([scenario.title] + ranks + [findings.isEmpty ? "no order" : findings.joined(separator: ", ")])
        }
        let header = ["Scenario"] + records.indices.map { "Run \($0 + 1)" } + ["Holds in every run"]
        md += Format.table(header, leftAligned: header.count, rows)
        return md + "\n" + machinesSection(report, evidence: evidence)
    }

    /// Each contender's ratio to raw GCD on each recorded machine (its latest run there), per
    /// scenario.
    static func machinesSection(_ report: BenchmarkReport, evidence: Evidence) -> String {
        let machines = evidence.latestPerMachine
        guard !machines.isEmpty else { return "" }
        var md = "### Each contender on each machine\n\n"
        md += "Time per unit as a ratio to raw GCD at the headline size, with its 95 % interval, in the latest "
        md += "recorded run on each machine (its commit in the column). What moves with the machine is "
        md += "discussed in the [design review](design-review.md#what-moves-with-the-machine).\n\n"
        let names = report.contenders.map(\.name).filter { $0 != referenceContender }
        var rows: [[String]] = []
        for scenario in report.scenarios {
            for name in names {
                let cells = machines.map { machine in
                    machine.record.scenario(scenario.id)?.ratio(name, over: referenceContender).map(withInterval) ?? "—"
                }
                if cells.contains(where: { $0 != "—" }) { rows.append([scenario.id, name] + cells) }
            }
        }
        let header = ["Scenario", "Contender"] + machines.map { "\($0.machine) (`\($0.record.run.commit)`)" }
        return md + Format.table(header, leftAligned: 2, rows) + "\n"
    }

    static func memorySection(_ report: BenchmarkReport) -> String {
        guard !report.memory.isEmpty else { return "" }
        var md = "## Memory: one pending promise with one `then`\n\n"
        md += "Bytes still allocated and allocations made per pending promise with one callback attached "
        md += "(the promise, the callback, and whatever `then` returns), averaged over many.\n\n"
        let rows = report.memory.map {
            [$0.contender, Format.bytes($0.bytesPerPending), Format.decimal($0.allocationsPerPending)]
        }
        return md + Format.table(["Contender", "Bytes retained", "Allocations"], rows) + "\n"
    }

    static func scenarioSection(_ scenario: ScenarioResult, number: Int, report: BenchmarkReport) -> String {
        var md = "### \(number). \(scenario.title)\n\n\(scenario.summary)\n\n"
        if scenario.isCurve && scenario.sizes.count > 1 {
            md += "![\(scenario.title): time per \(scenario.unit) against N](benchmarks-\(scenario.id).svg)\n\n"
            md += curveTable(scenario, report: report)
        }
        let twoPhase = scenario.sizes.contains { $0.cells.contains { $0.buildSamples != nil } }
        for size in scenario.sizes {
            md += "**N = \(Format.count(size.size))** (\(Format.count(size.units)) \(scenario.unit)s per sample), "
            md += "time per \(scenario.unit):\n\n"
            let metricNames = Set(size.cells.flatMap { $0.metrics.map { Array($0.keys) } ?? [] }).sorted()
            let ratioTitle = hasIntervals(report) ? "Ratio to GCD (95 % interval)" : "Ratio to GCD"
            var header = ["Contender", "Median", "MAD", "Min", "Max", ratioTitle]
            header += (twoPhase ? ["Build", "Fire"] : []) + ["Allocations per \(scenario.unit)"] + metricNames
            let rows = report.contenders.compactMap { size.cell($0.name) }.map { cell -> [String] in
                let summary = cell.summary
                var row =
                    [cell.contender] + [summary.median, summary.mad, summary.min, summary.max].map(Format.duration)
                row.append(ratioText(cell.contender, in: size, intervals: hasIntervals(report)))
                if twoPhase {
                    row += [cell.buildSamples, cell.fireSamples].map { samples -> String in
                        samples.map { Format.duration(SampleSummary($0).median) } ?? "—"
                    }
                }
                row.append(cell.allocationsPerUnit.map(Format.decimal) ?? "—")
                return row + metricNames.map { cell.metrics?[$0].map(Format.decimal) ?? "—" }
            }
            md += Format.table(header, rows)
            let missing = report.contenders.map(\.name).filter { size.cell($0) == nil }
            if !missing.isEmpty { md += "\nNot run: \(missing.joined(separator: ", ")).\n" }
            md += "\n"
        }
        return md
    }

    /// The growth curve as numbers: median time per unit, one row per contender, one column per N.
    static func curveTable(_ scenario: ScenarioResult, report: BenchmarkReport) -> String {
        let rows = report.contenders.map(\.name).filter { name in scenario.sizes.contains { $0.cell(name) != nil } }
            .map { name in
                [name]
                    + scenario.sizes.map { size in size.cell(name).map { Format.duration($0.summary.median) } ?? "—" }
            }
        let header = ["Time per \(scenario.unit)"] + scenario.sizes.map { "N = \(Format.count($0.size))" }
        return Format.table(header, rows) + "\n"
    }

    static func contendersSection(_ report: BenchmarkReport) -> String {
        let rows = report.contenders.map { [$0.name, $0.kind.rawValue, $0.summary] }
        return "## Contenders\n\n" + Format.table(["Contender", "Kind", "What it is"], leftAligned: 3, rows) + "\n"
    }

    static func methodSection(_ report: BenchmarkReport) -> String {
        """
        ## How it was measured

        - \(report.run.processes) independent process run\(report.run.processes == 1 ? "" : "s") of the tool each \
        measured every cell, one after the other. Within a process run each scenario, and the memory per \
        pending promise, ran in a process of its own, so that no scenario's times depend on what an earlier \
        one left behind (libdispatch's threads, the heap); within a scenario every contender shares the \
        machine's state. \
        A debug build runs the release build instead, unless told to check itself (`--as-built`).
        - Each scenario's result is checked before it is timed (a wrong sum, count or order aborts the run), \
        and every timed repetition is checked again.
        - Per cell and process: \(report.run.warmups) untimed warm-up, then \(report.run.repetitions) timed \
        repetitions, interleaved across contenders, in a new seeded order each repetition (B A C … C A B …), so \
        that drift on the shared machine hits all alike and what one contender leaves behind does not land on \
        the same neighbour in every sample. \
        Tables give the median and the MAD (median absolute deviation, unscaled) of the time per unit over \
        all process runs, with min and max; ratios divide medians by raw GCD's median on the same scenario \
        and size.
        - Each ratio's 95 % interval comes from a hierarchical bootstrap (2,000 resamples): draw the process \
        runs with replacement, then each drawn run's repetitions, and take the ratio of the two medians; the \
        interval is the 2.5th to 97.5th percentile. Time varies more between processes than within one \
        (Kalibera and Jones, "Rigorous benchmarking in reasonable time", 2013), which a bootstrap over the \
        repetitions of one process would hide. Two designs are compared, ranked and said to tie by the interval \
        of one's time over the other's, drawn from the same process runs: they were measured side by side. \
        A one-process or quick run shows no intervals.
        - Memory per pending promise: the median over the process runs.
        - Two-phase scenarios (the chain) time building and firing separately; the median column is their sum.
        - Allocations: counted by replacing `malloc` and `free` in the tool's process (its \
        `AllocationCounting` target, forwarding to glibc) during one extra, untimed run per cell; bytes \
        per pending promise: the heap bytes allocated minus those freed (the allocator's usable sizes, \
        so each block is rounded up to its size class) while 10,000 pending promises with one `then` \
        each are held. The replacement stays linked during timing (one relaxed load per call), the \
        same for every contender.
        - Peak RSS: `getrusage`'s `ru_maxrss` at the end of the run.
        - The main queue is serviced (`dispatchMain`) while the benchmark runs on a separate thread, \
        so designs whose defaults use the main queue behave as in an app; scenarios name their queues.
        - Reproduce with `\(report.run.command)`; `--quick` is a smoke test, `--scenario`, `--design`, \
        `--processes` and `--repetitions` narrow a run (see `compare --help`).

        """
    }

    // MARK: Charts

    /// The contenders a chart shows, each with its style: the designs in colour, then `references`
    /// in grey, in report order.
    static func charted(_ report: BenchmarkReport, references: [String]) -> [(name: String, style: SVGChart.Style)] {
        let designs = report.contenders.filter { $0.kind == .design }.map(\.name)
        let others = references.filter { name in report.contenders.contains { $0.name == name } }
        return designs.enumerated().map { ($0.element, .design($0.offset)) }
            + others.enumerated().map { ($0.element, .reference($0.offset)) }
    }

    /// The ratio chart: per scenario that is not a growth curve, one bar per design and reference,
    /// rising from 1× (raw GCD, the dashed line), with its 95 % interval as a whisker when the run
    /// has intervals. The other contenders are in the tables: the floor of direct calls would set
    /// the axis by itself.
    static func ratioChart(for report: BenchmarkReport, references: [String]) -> String? {
        let scenarios = report.scenarios.filter { !$0.isCurve }
        guard !scenarios.isEmpty else { return nil }
        let sizes = scenarios.compactMap { $0.result(at: $0.headlineSize) ?? $0.sizes.last }
        let intervals = hasIntervals(report)
        let series = charted(report, references: references).map { name, style in
            SVGChart.Series(
                name: name,
                points: sizes.enumerated().map { (Double($0.offset), ratio(name, in: $0.element)) },
                intervals: intervals ? sizes.map { interval(name, in: $0).map { (low: $0.low, high: $0.high) } } : [],
                style: style
            )
        }
        let curves = report.scenarios.filter(\.isCurve).map(\.id)
        let subtitle =
            (curves.isEmpty
                ? ""
                : "\(scenarios.count) of \(report.scenarios.count) scenarios (\(curves.joined(separator: ", ")): growth charts); ")
            + "every contender in the tables"
        return SVGChart.logBars(
            title: "Time per unit as a ratio to raw GCD (log scale)",
            subtitle: subtitle,
            yLabel: "ratio to raw GCD",
            groups: scenarios.map(\.id),
            series: series,
            reference: 1,
            notes: ["dashed: raw GCD, 1×"] + (intervals ? ["whisker: 95 % interval"] : []) + ["○: no such operation"],
            formatY: Format.ratio,
            formatTick: Format.decadeRatio
        )
    }

    /// A growth chart: median time per unit against N for the designs and `references`, with the
    /// 95 % interval of each median when the run has intervals.
    static func growthChart(for scenario: ScenarioResult, report: BenchmarkReport, references: [String]) -> String {
        let intervals = hasIntervals(report)
        let series = charted(report, references: references).map { name, style in
            let cells = scenario.sizes.compactMap { size in size.cell(name).map { (size, $0) } }
            return SVGChart.Series(
                name: name,
                points: cells.map { (x: Double($0.0.size), y: Optional($0.1.summary.median)) },
                intervals: intervals
                    ? cells.map { size, cell in
                        Bootstrap.median(cell.runs, seedParts: [name, String(size.size)]).map { ($0.low, $0.high) }
                    } : [],
                style: style
            )
        }
        return SVGChart.logLog(
            title: "\(scenario.title): time per \(scenario.unit) against N (log-log)",
            xLabel: "N",
            yLabel: "time per \(scenario.unit)",
            series: series,
            formatY: Format.duration
        )
    }

}
