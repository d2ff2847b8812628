import DesignRegistry
import ReportPolicy
import Testing

@testable import CompareKit

@Suite("Statistics")
struct StatisticsTests {
    /// Samples, then median, MAD, min and max. An odd count: deviations from 3 are 2, 2, 0, 97, 1,
    /// sorted 0, 1, 2, 2, 97, so the MAD is 2. An even count averages the two middle values:
    /// deviations from 2.5 sort to 0.5, 0.5, 1.5, 1.5, so the MAD is 1. One sample has no spread.
    @Test(
        "median and MAD of odd and even counts and of one sample",
        arguments: [([5, 1, 3, 100, 2], [3, 2, 1, 100]), ([4, 1, 3, 2], [2.5, 1, 1, 4]), ([7], [7, 0, 7, 7])])
    func summary(samples: [Double], expected: [Double]) {
        let summary = SampleSummary(samples)
        #expect(summary.count == samples.count)
        #expect([summary.median, summary.mad, summary.min, summary.max] == expected)
        #expect(summary.relativeMAD == expected[1] / expected[0])
    }

    @Test("an outlier moves the mean but not the median")
    func robustToOutliers() {
        let calm = SampleSummary([10, 10, 11, 9, 12])
        let spiked = SampleSummary([10, 10, 11, 9, 1_000])
        #expect(calm.median == spiked.median)
        #expect(calm.mad == spiked.mad)
    }

    @Test("a zero median has a zero relative MAD instead of dividing by zero")
    func zeroMedian() {
        #expect(SampleSummary([0, 0, 1]).relativeMAD == 0)
    }
}

@Suite("Formatting")
struct FormatTests {
    @Test(
        "durations pick the unit that keeps three digits",
        arguments: [
            (2.5, "2.50 s"), (0.0123, "12.3 ms"), (4.56e-6, "4.56 µs"), (850e-9, "850 ns"), (0.5e-9, "500 ps"),
            (0, "0 ns"),
        ])
    func durations(seconds: Double, expected: String) {
        #expect(Format.duration(seconds) == expected)
    }

    @Test("ratios, bytes and counts")
    func others() {
        #expect(Format.ratio(1.234) == "1.23×")
        #expect(Format.ratio(12.34) == "12.3×")
        #expect(Format.ratio(0.0456) == "0.046×")
        #expect(Format.bytes(848) == "848 B")
        #expect(Format.bytes(20 * 1024) == "20.0 KiB")
        #expect(Format.bytes(3 * 1_048_576) == "3.0 MiB")
        #expect(Format.count(100_000) == "100,000")
        #expect(Format.count(-1_234) == "-1,234")
        #expect(Format.count(12) == "12")
        #expect(Format.decimal(6) == "6")
        #expect(Format.decimal(2.46) == "2.5")
    }
}

@Suite("Targets")
struct TargetsTests {
    @Test("every design has targets, and every limit names a scenario the targets table shows")
    func limitsAreShown() {
        let table = ProjectTargets.table
        #expect(Set(table.limits.keys) == Set(Design.allCases.map(\.rawValue)))
        for (design, limits) in table.limits {
            #expect(Set(limits.ratios.keys).union(limits.relative.keys).isSubset(of: table.scenarios), "\(design)")
            #expect(limits.relative.values.allSatisfy { $0.contender != design }, "\(design) is its own yardstick")
        }
    }

    @Test("a memory cell's mark judges the value it shows: 6.0002 allocations read 6 and meet a limit of 6")
    func memoryCellMarksWhatItShows() {
        let allocations = { (value: Double) in
            MarkdownReport.memoryCell(value, limit: 6, resolution: 0.1, format: Format.decimal)
        }
        #expect(allocations(6.0002) == "✅ 6 (≤ 6)")
        #expect(allocations(6.1) == "❌ 6.1 (≤ 6)")
        #expect(
            MarkdownReport.memoryCell(200.4, limit: 200, resolution: 1, format: Format.bytes) == "✅ 200 B (≤ 200 B)")
        #expect(MarkdownReport.memoryCell(201, limit: 200, resolution: 1, format: Format.bytes) == "❌ 201 B (≤ 200 B)")
    }
}
