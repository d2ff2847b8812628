import Foundation
import Testing

@testable import CompareKit

/// The reports' prose against the data: every claim holds in the committed run, and every
/// statement of the design review and the README that compares designs carries a claim.
@Suite("Prose claims")
struct ProseClaimTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let reports = root.appendingPathComponent("Reports")
    static let designs = ["FBL", "AY", "QX", "QN"]

    /// The committed run, as its record.
    static func committedRun() throws -> RunRecord {
        try RunRecord(
            report: BenchmarkReport.decode(from: Data(contentsOf: reports.appendingPathComponent("benchmarks.json"))))
    }

    /// The prose files that may make claims: every Markdown file of Reports/ and the README.
    static func proseFiles() throws -> [URL] {
        let names = try FileManager.default.contentsOfDirectory(atPath: reports.path).filter { $0.hasSuffix(".md") }
        return names.sorted().map { reports.appendingPathComponent($0) } + [root.appendingPathComponent("README.md")]
    }

    @Test("every claim in Reports/ and the README holds in the committed run")
    func claimsHold() throws {
        let run = try Self.committedRun()
        var count = 0
        for file in try Self.proseFiles() {
            for claim in try ProseClaims.claims(in: String(contentsOf: file, encoding: .utf8)) {
                count += 1
                let failure = ProseClaims.failure(of: claim, in: run)
                #expect(failure == nil, "\(file.lastPathComponent): '\(claim)': \(failure ?? "")")
            }
        }
        #expect(count >= 10, "the design review states its rankings as claims")
    }

    @Test("every statement of the design review and the README that compares designs carries a claim")
    func statementsCarryClaims() throws {
        for name in ["Reports/design-review.md", "README.md"] {
            let text = try String(contentsOf: Self.root.appendingPathComponent(name), encoding: .utf8)
            let unbacked = ProseClaims.unbackedStatements(in: text, designs: Self.designs)
            #expect(
                unbacked.isEmpty,
                "\(name): statements that compare designs without a claim:\n\(unbacked.joined(separator: "\n"))")
        }
    }

    @Test("the statements an earlier review made fail against the run it quoted")
    func earlierStatementsFail() throws {
        // The run of 5bee67c, which the review quoted when it said these.
        let record = try RunRecord.decode(
            from: Data(
                contentsOf: Self.reports.appendingPathComponent(
                    "runs/2026-11-24T19-52-51Z-intel-xeon-processor-5bee67c.json")))
        let earlier = [
            // "FBL … the fastest per fan-out observer" (QX's ratio was lower, and the two tie).
            "fan-out: FBL < QX",
            // "AY … above it per fan-out observer" (AY's ratio was lower, and the two tie).
            "fan-out: FBL < AY",
            // "three to four times FBL's memory" (384 B against 180 B).
            "memory: QN / FBL in 3...4",
        ]
        for text in earlier {
            let claim = try ProseClaims.parse(text)
            #expect(ProseClaims.failure(of: claim, in: record) != nil, "\(text) should fail")
        }
        // And what the data do say, on the same run.
        for text in ["fan-out: FBL = QX", "chain: FBL < QN", "memory: QN / FBL in 2...2.2", "chain: QN in 5.9...6.1"] {
            let failure = ProseClaims.failure(of: try ProseClaims.parse(text), in: record)
            #expect(failure == nil, "\(text): \(failure ?? "")")
        }
    }

    @Test("claims parse in their four forms, several to a comment, and a malformed one is an error")
    func parsing() throws {
        let text =
            "QN pays twice. <!-- claim: chain: QN / FBL in 1.6...2.6; chain: FBL < QN -->\n"
            + "<!-- claim: fan-out: FBL = Swift concurrency --> <!-- claim: memory: QX in 300...400 -->"
        let claims = try ProseClaims.claims(in: text)
        #expect(
            claims.map(\.kind) == [
                .ratio("QN", over: "FBL", 1.6...2.6), .below("FBL", "QN"), .tie("FBL", "Swift concurrency"),
                .value("QX", 300...400),
            ])
        #expect(claims.map(\.scenario) == ["chain", "chain", "fan-out", "memory"])
        #expect(throws: ProseClaims.ParseError.self) { try ProseClaims.claims(in: "<!-- claim: chain FBL < QN -->") }
        #expect(throws: ProseClaims.ParseError.self) { try ProseClaims.claims(in: "<!-- claim: chain: QN in 3 -->") }
    }

    @Test("a statement that compares designs without a claim is found; with one, or in a generated section, it is not")
    func unbacked() {
        let text = """
            # Review

            FBL is the fastest per fan-out observer.

            - QN costs twice FBL per link. <!-- claim: chain: QN / FBL in 1.6...2.6 -->
            - AY is untyped.

            <!-- BEGIN generated from benchmarks.json -->
            | FBL | 2.6× |
            <!-- END generated -->
            """
        #expect(
            ProseClaims.unbackedStatements(in: text, designs: Self.designs) == [
                "FBL is the fastest per fan-out observer."
            ])
    }
}
