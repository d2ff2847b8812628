import Testing

@testable import CompareKit

@Suite("Charts a person reads correctly")
struct ChartTests {
    @Test("every series style differs in colour and marker, none is the pale yellow, and half are dashed")
    func styles() {
        let styles = SVGChart.styles
        #expect(Set(styles.map(\.color)).count == styles.count)
        #expect(Set(styles.map { "\($0.marker)" }).count == styles.count)
        #expect(!styles.contains { $0.color == "#F0E442" })
        #expect(styles.filter { $0.dash != nil }.count == styles.count / 2)
    }

    @Test("ratio ticks read as decades, and a clipped bar's value keeps two significant digits")
    func ticks() {
        #expect(Format.smallRatio(0.00031) == "0.00031×")
        #expect(Format.smallRatio(0.0031) == "0.0031×")
        #expect(Format.smallRatio(0.5) == Format.ratio(0.5))
        #expect(Format.decadeRatio(0.01) == "0.01×")
        #expect(Format.decadeRatio(0.1) == "0.1×")
        #expect(Format.decadeRatio(1) == "1×")
        #expect(Format.decadeRatio(1000) == "1000×")
    }

    @Test("bars start at the reference, a missing bar says n/a, a bar below the floor shows its value")
    func bars() {
        let svg = SVGChart.logBars(
            title: "t", subtitle: "2 of 3 scenarios", yLabel: "y", groups: ["a", "b"],
            series: [
                SVGChart.Series(name: "fast", points: [(0, 0.00031), (1, nil)]),
                SVGChart.Series(name: "slow", points: [(0, 10), (1, 2)]),
            ],
            reference: 1, floor: 0.01, formatY: Format.ratio, formatClipped: Format.smallRatio,
            formatTick: Format.decadeRatio)
        #expect(svg.contains(">n/a</text>"))
        #expect(svg.contains(">0.00031×</text>"), "the clipped bar's value")
        #expect(svg.contains(">2 of 3 scenarios</text>"))
        #expect(!svg.contains(">0.000×<"))
        #expect(
            svg.contains(">0.01×</text>") && !svg.contains(">0.001×</text>\n  <line"), "the axis stops at the floor")
    }
}
