import Foundation
import ReportPolicy
import TestSupport
import Testing

@testable import CompareKit

/// The committed report says whether the designs' code changed since its run: its header's row
/// must be what the code says now (`compare render` rewrites it).
@Suite("The committed run and the code")
struct RunFreshnessTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let policy = RecordPolicy(root: root)

    @Test(
        "benchmarks.md says which design's code changed since its run",
        .enabled(if: policy.hasHistory, "needs a git checkout with the run's commit"))
    func headerMatchesTheCode() async throws {
        let report = try BenchmarkReport.decode(
            from: Data(contentsOf: Self.root.appendingPathComponent("Reports/benchmarks.json")))
        // Off the cooperative pool: git runs once per design, and waiting on it there would hold
        // one of the pool's threads (two on CI) meanwhile.
        let commit = report.run.commit
        let since = try #require(
            try await offPool("git, about the code since the run", timeout: longTimeout(.seconds(120))) {
                Self.policy.codeSinceRun(commit)
            },
            "the run's commit is not in this checkout")
        let markdown = try String(
            contentsOf: Self.root.appendingPathComponent("Reports/benchmarks.md"), encoding: .utf8)
        let row = "| \(RecordPolicy.codeSinceRunTitle) | \(since) |"
        #expect(
            markdown.contains(row),
            "Reports/benchmarks.md: does not say '\(row)'. Fix: run `swift run -c release compare render` and commit the result. Rule: CONTRIBUTING.md#generated-sections"
        )
    }
}
