import Foundation
import TestSupport
import Testing

/// Memory handed back after a large drop: a child process (`MemoryAfterDrop`, one per scenario, so
/// that nothing else the tests do moves the figure) reads its resident size before a large piece
/// of Batched's work, at the work's peak, and once the drop has been followed by the trim Batched
/// makes when freeing goes quiet (`HeapTrimming`: within a few hundred milliseconds).
///
/// glibc keeps freed small objects in lists that are never returned to the system on their own; a
/// process that had made a million promises kept 7.5 times its size before, in every design.
/// Batched's trim must leave at most 10 % of what the work took resident.
@Suite(
    "Reliability: memory returned after a large drop",
    .disabled(if: Sanitizer.isActive, "the sanitized runs build the test bundle only; the plain run runs the probe"))
struct MemoryAfterDropTests {
    /// One child's figures, in bytes.
    struct Figures: Decodable, CustomStringConvertible {
        var before: Int
        var peak: Int
        /// Right after the drop, and once Batched's trim has run.
        var after: Int
        var settled: Int

        /// The share of what the work took (its peak over the size before) that is resident no
        /// more once the trim has run.
        var returned: Double { Double(peak - settled) / Double(peak - before) }

        var description: String {
            let megabytes = { (bytes: Int) in String(format: "%.1f MB", Double(bytes) / 1_048_576) }
            return "before \(megabytes(before)), peak \(megabytes(peak)), right after the drop \(megabytes(after)), "
                + "after the trim \(megabytes(settled)) (\(Int((returned * 100).rounded())) % returned)"
        }
    }

    @Test(
        "Batched hands back at least 90 % of a million objects' memory once they are dropped",
        arguments: ["chain", "pending-chain", "all"])
    func batchedReturnsMemory(scenario: String) async throws {
        let tool = try ToolRun.builtTool("MemoryAfterDrop")
        let run = try await offPool("MemoryAfterDrop Batched \(scenario)", timeout: longTimeout(.seconds(120))) {
            try ToolRun.run(tool, ["Batched", scenario, "1000000"], mergingErrors: true)
        }
        try #require(run.status == 0, "MemoryAfterDrop exited with \(run.status): \(run.text)")
        let figures = try JSONDecoder().decode(Figures.self, from: run.output)
        // The work must have taken memory for the figure to mean anything (a million links take
        // over 100 MB).
        #expect(figures.peak - figures.before > 64 << 20, "\(figures)")
        #expect(figures.returned >= 0.9, "\(figures)")
    }
}
