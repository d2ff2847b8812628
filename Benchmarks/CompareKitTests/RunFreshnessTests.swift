import Foundation
import ReportPolicy
import Testing

@testable import CompareKit

/// The committed report says whether the designs' code changed since its run: its header's row
/// must match what git says (`compare render` rewrites it).
@Suite("The committed run and the code")
struct RunFreshnessTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func committedReport() throws -> BenchmarkReport {
        try BenchmarkReport.decode(
            from: Data(contentsOf: root.appendingPathComponent("Reports/benchmarks.json")))
    }

    /// Whether this is a git checkout that has the run's commit (not a source archive, not a
    /// shallow clone).
    static var hasHistory: Bool {
        (try? committedReport()).flatMap { CodeSinceRun.compute(since: $0.run.commit, root: root) } != nil
    }

    @Test(
        "benchmarks.md says which design files changed since its run, as git does",
        .enabled(if: hasHistory, "needs a git checkout with the run's commit"))
    func headerMatchesGit() throws {
        let report = try Self.committedReport()
        let since = try #require(CodeSinceRun.compute(since: report.run.commit, root: Self.root))
        let markdown = try String(
            contentsOf: Self.root.appendingPathComponent("Reports/benchmarks.md"), encoding: .utf8)
        let row = "| \(CodeSinceRun.rowTitle) | \(since.text) |"
        #expect(
            markdown.contains(row),
            "Reports/benchmarks.md should say '\(row)': rerun `swift run -c release compare` (or `compare render`)")
    }

    @Test("the row says unchanged, or counts the commits and names the files")
    func text() {
        #expect(CodeSinceRun(commits: 0, files: []).text.hasPrefix("unchanged"))
        #expect(
            CodeSinceRun(commits: 2, files: ["Implementations/A.swift"]).text
                == "2 commits changed 1 file: `Implementations/A.swift`")
    }
}
