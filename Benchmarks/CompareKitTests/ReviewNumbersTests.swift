import Foundation
import Testing

@testable import CompareKit
@testable import ReportPolicy

/// The design review quotes only the committed run: its numbers section is generated from
/// `benchmarks.json`, and the committed review must hold exactly what the committed JSON renders.
@Suite("Design review numbers")
struct ReviewNumbersTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the section for the fixture report matches its golden file")
    func golden() throws {
        let section = ReviewNumbers.section(for: ReportFixture.report)
        let url = ReportWriterTests.golden.appendingPathComponent("review-numbers.md")
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try Data(section.utf8).write(to: url)
            return
        }
        #expect(section == (try String(contentsOf: url, encoding: .utf8)))
    }

    @Test("a time range keeps one unit, and a contender that did not run shows a dash")
    func cells() throws {
        let chain = try #require(ReportFixture.report.scenarios.first { $0.id == "chain" })
        #expect(ReviewNumbers.cell("nobody", in: chain) == "—")
        #expect(ReviewNumbers.cell("FBL", in: chain) == "360–432 ns (1.44×; 1.37–1.51)")
        var crossing = chain
        crossing.sizes = chain.sizes.enumerated().map { index, size in
            var size = size
            size.cells = size.cells.map { cell in
                var cell = cell
                if cell.contender == "FBL" { cell.runs = [[index == 0 ? 850e-9 : 1.2e-6]] }
                return cell
            }
            return size
        }
        #expect(ReviewNumbers.cell("FBL", in: crossing).hasPrefix("850 ns–1.20 µs"))
    }

    @Test("splicing replaces only the section between the markers")
    func splice() throws {
        let old = ReviewNumbers.beginMarker + "\nold\n" + ReviewNumbers.endMarker
        let text = "# Review\n\nBefore.\n\n" + old + "\n\nAfter.\n"
        let spliced = try #require(
            ReviewNumbers.splice(ReviewNumbers.beginMarker + "\nnew\n" + ReviewNumbers.endMarker, into: text))
        #expect(
            spliced == "# Review\n\nBefore.\n\n" + ReviewNumbers.beginMarker + "\nnew\n" + ReviewNumbers.endMarker
                + "\n\nAfter.\n")
        #expect(ReviewNumbers.splice("x", into: "no markers") == nil)
    }

    @Test("Reports/design-review.md holds exactly the numbers of Reports/benchmarks.json")
    func committedReviewMatchesCommittedRun() throws {
        let reports = Self.packageRoot.appendingPathComponent("Reports")
        let report = try BenchmarkReport.decode(
            from: Data(contentsOf: reports.appendingPathComponent("benchmarks.json")))
        let review = try String(contentsOf: reports.appendingPathComponent("design-review.md"), encoding: .utf8)
        let committed = try #require(ReviewNumbers.currentSection(in: review), "the review has no generated section")
        #expect(
            committed == ReviewNumbers.section(for: report),
            "the review's numbers are not those of benchmarks.json: run `swift run -c release compare render`")
    }
}
