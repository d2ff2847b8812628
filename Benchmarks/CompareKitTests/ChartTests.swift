import Foundation
import Testing

@testable import CompareKit

@Suite("Charts a person reads correctly")
struct ChartTests {
    @Test("designs get colours that differ, for any number of designs; references light greys that differ")
    func styles() {
        let designs = (0..<12).map(SVGChart.Style.design)
        #expect(Set(designs.map(\.color)).count == designs.count)
        #expect(!designs.contains { $0.color == "#F0E442" }, "the pale yellow reads badly on white")
        let references = (0..<2).map(SVGChart.Style.reference)
        #expect(Set(references.map(\.color)).count == 2)
        #expect(references.allSatisfy { $0.color >= "#707070" }, "a black whisker shows on a reference's bar")
        #expect(Set(references.map(\.color)).isDisjoint(with: designs.map(\.color)))
    }

    @Test("ratio ticks read as decades, and a small ratio keeps two significant digits")
    func ticks() {
        #expect(Format.ratio(0.00031) == "0.00031×")
        #expect(Format.ratio(0.0031) == "0.0031×")
        #expect(Format.ratio(0.045) == "0.045×")
        #expect(Format.ratio(0.5) == "0.50×")
        #expect(Format.ratioRange(0.0031, 1.234) == "0.0031–1.23")
        #expect(Format.decadeRatio(0.01) == "0.01×")
        #expect(Format.decadeRatio(0.1) == "0.1×")
        #expect(Format.decadeRatio(1) == "1×")
        #expect(Format.decadeRatio(1000) == "1000×")
    }

    @Test("bars start at the reference, a missing bar is a ring, whiskers show, and the axis covers every bar")
    func bars() {
        let svg = SVGChart.logBars(
            title: "t", subtitle: "2 of 3 scenarios", yLabel: "y", groups: ["a", "b"],
            series: [
                SVGChart.Series(
                    name: "fast", points: [(0, 0.00031), (1, nil)], intervals: [(low: 0.0002, high: 0.0004), nil]),
                SVGChart.Series(name: "slow", points: [(0, 10), (1, 2)], intervals: [(low: 8, high: 30), nil]),
            ],
            reference: 1, formatY: Format.ratio, formatTick: Format.decadeRatio)
        #expect(!svg.contains("n/a"))
        #expect(svg.components(separatedBy: "<circle").count - 1 == 1, "one ring for the one missing bar")
        #expect(svg.components(separatedBy: "<path").count - 1 == 2, "two whiskers")
        #expect(svg.contains(">2 of 3 scenarios</text>"))
        #expect(svg.contains(">0.0001×</text>") && svg.contains(">100×</text>"), "the axis covers 0.0002 to 30")
        #expect(!svg.contains(">0.00001×</text>"))
    }

    @Test("the ratio chart shows the designs and at most the references it is given, and no bar for raw GCD")
    func ratioChartSeries() throws {
        let svg = try #require(MarkdownReport.ratioChart(for: ReportFixture.report, references: ["NIO", "Nobody"]))
        #expect(!svg.contains(">GCD</text>"))
        #expect(svg.contains(">FBL</text>") && svg.contains(">NIO</text>") && !svg.contains(">Nobody</text>"))
    }

    @Test("growth charts draw each median's interval when the run has them")
    func growthIntervals() throws {
        let chain = try #require(ReportFixture.report.scenarios.first { $0.id == "chain" })
        let svg = MarkdownReport.growthChart(for: chain, report: ReportFixture.report, references: ["GCD"])
        #expect(svg.contains(">GCD</text>") && svg.contains(">FBL</text>"))
        #expect(svg.contains("<path") == MarkdownReport.hasIntervals(ReportFixture.report))
    }
}
