import Foundation
import ReportPolicy
import Testing

@testable import CompareKit

/// Golden-file tests of the report writers: the fixture report must render byte for byte as the
/// committed files in `Golden/`. After an intended change to a writer, regenerate them with
/// `UPDATE_GOLDEN=1 swift test --filter ReportWriterTests` and review the diff.
@Suite("Report writers")
struct ReportWriterTests {
    @Test("a run ends by printing each scenario's ratios at its headline size and the files it wrote")
    func terminalSummary() throws {
        let report = ReportFixture.report
        let text = TerminalSummary.text(for: report, files: ["Reports/benchmarks.json", "Reports/benchmarks.md"])
        let lines = text.split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("scenario") })
        for contender in report.contenders where contender.name != "GCD" {
            #expect(header.contains(contender.name), "\(contender.name) has no column")
        }
        for scenario in report.scenarios {
            #expect(lines.contains { $0.hasPrefix(scenario.id + " ") }, "\(scenario.id) has no row")
        }
        #expect(lines.suffix(3) == ["wrote:", "  Reports/benchmarks.json", "  Reports/benchmarks.md"])
        // Columns line up: every row as wide as the header.
        let rows = lines.drop { !$0.hasPrefix("scenario") }.prefix { $0 != "wrote:" }
        #expect(Set(rows.map(\.count)).count == 1, "\(rows)")
    }

    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    @Test("the JSON round-trips to an equal report")
    func jsonRoundTrip() throws {
        let data = try ReportFixture.report.jsonData()
        #expect(try BenchmarkReport.decode(from: data) == ReportFixture.report)
    }

    @Test("a report of another format version is refused with a clear error")
    func refusesOtherVersions() throws {
        var json = try #require(String(data: ReportFixture.report.jsonData(), encoding: .utf8))
        json = json.replacingOccurrences(of: "\"version\" : 2", with: "\"version\" : 99")
        #expect(throws: ReportError.unsupportedVersion(found: 99, expected: 2)) {
            try BenchmarkReport.decode(from: Data(json.utf8))
        }
    }

    @Test("ratios divide medians by raw GCD's median on the same size")
    func ratios() throws {
        let size = try #require(ReportFixture.report.scenarios[0].result(at: 1_000))
        #expect(MarkdownReport.ratio("GCD", in: size) == 1)
        // Pooled over both process runs: 315 ns over 207.5 ns.
        #expect(abs(try #require(MarkdownReport.ratio("FBL", in: size)) - 315 / 207.5) < 1e-12)
        #expect(MarkdownReport.ratio("QX", in: size) == nil)
    }

    @Test("the Markdown and the charts match the golden files")
    func goldenFiles() throws {
        let files = MarkdownReport.files(
            for: ReportFixture.report,
            context: .init(evidence: Evidence(records: [ReportFixture.record]), targets: ProjectTargets.table))
        #expect(files.map(\.name) == ["benchmarks.md", "benchmarks-ratios.svg", "benchmarks-chain.svg"])
        for file in files { try check(file.contents, against: file.name) }
    }

    @Test("chart axes cover whole decades")
    func decades() {
        #expect(SVGChart.decades([15, 900]) == (1, 3))
        #expect(SVGChart.decades([100]) == (2, 3))
    }

    private func check(_ contents: String, against name: String) throws {
        let url = Self.golden.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try Data(contents.utf8).write(to: url)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(contents == expected, "\(name) differs from its golden file; if intended, rerun with UPDATE_GOLDEN=1")
    }
}
