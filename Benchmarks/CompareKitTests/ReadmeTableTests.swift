import Foundation
import ReportPolicy
import Testing

@testable import CompareKit

/// The README's first table quotes the committed run: `compare` writes it, and the committed README
/// must hold exactly what the committed `benchmarks.json` renders.
@Suite("README's table")
struct ReadmeTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("README.md holds exactly the table of Reports/benchmarks.json")
    func committedReadmeMatchesCommittedRun() throws {
        let report = try BenchmarkReport.decode(
            from: Data(contentsOf: Self.root.appendingPathComponent("Reports/benchmarks.json")))
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let committed = try #require(ReadmeTable.current(in: readme), "README.md has no generated table")
        #expect(
            committed == ReadmeTable.section(for: report),
            "README.md: the generated table is not the committed run's. Fix: run `swift run -c release compare render` and commit the result. Rule: CONTRIBUTING.md#generated-sections"
        )
    }

    @Test("the table has a row per design with its Promises/A+ result and the fixture run's numbers")
    func rows() {
        let table = ReadmeTable.section(for: ReportFixture.report)
        #expect(table.contains("| [FBL](Implementations/FBLPromises/README.md) | 714 of 714 | typed | at once |"))
        #expect(
            table.contains("| [QN](Implementations/QNTasks/README.md) | 714 of 714 | typed | on `start` | yes | yes |"))
        #expect(table.contains("300 B, 5.5 allocations"), "FBL's memory in the fixture")
    }

    @Test("async/await has a row of its own, and times are given in units beside the ratios")
    func asyncAwaitRow() {
        let table = ReadmeTable.section(for: ReportFixture.report)
        #expect(
            table.contains(
                "| [async/await](#which-design-or-asyncawait) | — | typed | at once | yes, structured | no |"))
        #expect(table.contains("Time per user, contacts and avatars workflow"))
        #expect(table.contains("Time (lower is better)"))
    }
}
