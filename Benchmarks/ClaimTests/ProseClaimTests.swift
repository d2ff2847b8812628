import CompareKit
import Foundation
import TestSupport
import Testing

@testable import ReportPolicy

/// The prose against the data: every claim of the README and `Reports/` holds in every recorded run
/// that can speak for it, on every machine, judged on paired intervals; every statement that
/// compares carries a claim.
@Suite("Prose claims")
struct ProseClaimTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let policy = RecordPolicy(root: root)

    @Test(
        "every claim holds in every recorded run that can speak for it, and every statement that compares carries one",
        .enabled(if: policy.hasHistory, "needs a git checkout: a record is left out for the designs changed since"))
    func claimsHold() async throws {
        let freshRuns = try Self.freshRuns()
        // Off the cooperative pool: the check reads every report and asks git about every record,
        // for seconds, and would hold one of the pool's threads (two on CI) all that time.
        let (machines, check) = try await offPool("the claim check", timeout: longTimeout(.seconds(300))) {
            let records = try RunRecord.all(in: Self.root.appendingPathComponent("Reports/runs"))
            let check = try ClaimCheck.run(root: Self.root, records: records + freshRuns, policy: Self.policy)
            return (Set(records.map(\.run.machine.label)).count, check)
        }
        #expect(machines >= 3, "the records cover several machines")
        if ProcessInfo.processInfo.environment["CLAIMS_RUNS"] != nil {
            print(([check.text] + check.leftOut.map { "left out: \($0)" }).joined(separator: "\n"))
        }
        let passed = check.passed
        #expect(passed, "\(check.text)")
        let claims = check.claims
        #expect(claims >= 20, "the review and the README state their comparisons as claims")
    }

    /// Full runs not recorded yet that the claims must hold in too (a fresh run, before it is
    /// committed): `CLAIMS_RUNS` names their `benchmarks.json` files, colon-separated. When it is
    /// set, even empty, the test prints the check and every record left out of a claim, and why.
    static let freshRunPaths = ProcessInfo.processInfo.environment["CLAIMS_RUNS"]?.split(separator: ":") ?? []

    static func freshRuns() throws -> [RunRecord] {
        try freshRunPaths.map { path in
            let report = try BenchmarkReport.decode(from: Data(contentsOf: URL(fileURLWithPath: String(path))))
            try #require(!report.run.quick, "\(path) is a --quick run: a smoke test, not evidence")
            return RunRecord(report: report)
        }
    }

    /// A synthetic run of one scenario where FBL is faster than QN beyond the noise and ties AY.
    static func record(cores: Int = 2, commit: String = "abc1234", cpu: String = "Test CPU") -> RunRecord {
        let run = RunInfo(
            date: "2026-11-21T12:00:00Z", command: "swift run -c release compare", commit: commit,
            toolchain: "Swift 6.3",
            machine: MachineInfo(os: "Linux", cpu: cpu, cores: cores, memoryBytes: 1 << 30),
            quick: false, processes: 2, repetitions: 3, warmups: 1, durationSeconds: 300, peakRSSBytes: 1 << 27)
        var record = RunRecord(report: BenchmarkReport(run: run, contenders: [], scenarios: [], memory: []))
        record.scenarios = [
            ScenarioRecord(
                id: "chain", title: "chain", size: 10_000,
                pairs: [
                    "FBL / QN": Interval(value: 0.7, low: 0.6, high: 0.8),
                    "FBL / AY": Interval(value: 0.95, low: 0.85, high: 1.05),
                    "FBL / GCD": Interval(value: 2.5, low: 2.3, high: 2.7),
                    "GCD / NIO": Interval(value: 0.8, low: 0.7, high: 0.9),
                ])
        ]
        return record
    }

    @Test("an order holds where the paired interval excludes 1, a tie where it holds 1, a range where the value lies")
    func outcomes() throws {
        func outcome(_ text: String, cores: Int = 2) throws -> ProseClaims.Outcome {
            ProseClaims.outcome(of: try ProseClaims.parse(text), in: Self.record(cores: cores), reference: "GCD")
        }
        #expect(try outcome("chain: FBL < QN") == .holds)
        #expect(try outcome("chain: QN < FBL") != .holds)
        #expect(try outcome("chain: FBL = AY") == .holds)
        #expect(try outcome("chain: FBL = QN") != .holds)
        #expect(try outcome("chain: AY = FBL") == .holds, "the reciprocal of a stored pair")
        #expect(try outcome("chain: QN / FBL in 1.3...1.5") == .holds)
        #expect(try outcome("chain: FBL in 2.2...2.6") == .holds)
        #expect(try outcome("chain: FBL in 2.6...3") != .holds)
        #expect(try outcome("chain on 16 cores: QN < FBL") == .notApplicable("a claim about 16-core machines"))
        #expect(try outcome("chain on 16 cores: FBL < QN", cores: 16) == .holds)
        #expect(try outcome("fan-out: FBL < QN") == .notApplicable("the run has no scenario 'fan-out'"))
    }

    @Test("claims parse in their forms, several to a comment, with a machine; a malformed one is an error")
    func parsing() throws {
        let text =
            "QN pays more. <!-- claim: chain: QN / FBL in 1.3...1.6; chain: FBL < QN -->\n"
            + "<!-- claim: fan-out on 2 cores: FBL = Swift concurrency --> <!-- claim: memory: QX in 400...500 -->"
        let claims = try ProseClaims.claims(in: text)
        #expect(
            claims.map(\.kind) == [
                .ratio("QN", over: "FBL", 1.3...1.6), .below("FBL", "QN"), .tie("FBL", "Swift concurrency"),
                .value("QX", 400...500),
            ])
        #expect(claims.map(\.scenario) == ["chain", "chain", "fan-out", "memory"])
        #expect(claims.map(\.cores) == [nil, nil, 2, nil])
        #expect(throws: ProseClaims.ParseError.self) { try ProseClaims.claims(in: "<!-- claim: chain FBL < QN -->") }
        #expect(throws: ProseClaims.ParseError.self) { try ProseClaims.claims(in: "<!-- claim: chain: QN in 3 -->") }
        #expect(throws: ProseClaims.ParseError.self) {
            try ProseClaims.claims(in: "<!-- claim: chain on two cores: FBL < QN -->")
        }
    }

    @Test("a claim may name a CPU type, with or without cores; it speaks for that CPU type's records only")
    func cpuTypes() throws {
        let claim = try ProseClaims.parse("chain on Intel Xeon, 2 cores: FBL < QN")
        #expect(claim.cpu == "Intel Xeon" && claim.cores == 2 && claim.scenario == "chain")
        #expect(try ProseClaims.parse("chain on AMD EPYC: FBL < QN").cpu == "AMD EPYC")
        let intel = Self.record(cpu: "Intel(R) Xeon(R) Processor")
        let amd = Self.record(cpu: "AMD EPYC")
        #expect(intel.run.machine.cpuType == "Intel Xeon" && amd.run.machine.cpuType == "AMD EPYC")
        #expect(ProseClaims.outcome(of: claim, in: intel, reference: "GCD") == .holds)
        guard case .notApplicable = ProseClaims.outcome(of: claim, in: amd, reference: "GCD") else {
            Issue.record("a claim about the Intel Xeon spoke for an AMD EPYC record")
            return
        }
        #expect(throws: ProseClaims.ParseError.self) { try ProseClaims.parse("chain on 2 cores, 4 cores: FBL < QN") }
        #expect(throws: ProseClaims.ParseError.self) { try ProseClaims.parse("chain on Xeon 8, 2 cores: FBL < QN") }
    }

    /// The check over a README of `text` alone and `records`.
    static func check(_ text: String, records: [RunRecord]) throws -> ClaimCheck {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("claims-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Reports"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(text.utf8).write(to: root.appendingPathComponent("README.md"))
        return try ClaimCheck.run(root: root, records: records, policy: RecordPolicy(root: root))
    }

    @Test(
        "a time claim one CPU type's records alone speak for names that CPU, a time range needs two CPU types, and the check says which spoke"
    )
    func claimsRestOnCPUTypes() throws {
        let intel = Self.record(cpu: "Intel(R) Xeon(R) Processor")
        let amd = Self.record(cpu: "AMD EPYC")
        let order = "GCD is below NIO per link. <!-- claim: chain: GCD < NIO -->\n"
        let range = "GCD takes 0.8× NIO's time per link. <!-- claim: chain: GCD / NIO in 0.7...0.9 -->\n"
        let named = "On the Intel Xeon, GCD is below NIO per link. <!-- claim: chain on Intel Xeon: GCD < NIO -->\n"

        let one = try Self.check(order + range + named, records: [intel, intel])
        #expect(one.problems.count == 2, "\(one.problems)")
        #expect(one.problems.contains { $0.contains("'chain: GCD < NIO': only Intel Xeon records speak for it") })
        #expect(one.problems.contains { $0.contains("a time range that only Intel Xeon records speak for") })
        #expect(one.cpuTypes.contains { $0.hasSuffix("'chain on Intel Xeon: GCD < NIO': Intel Xeon (2)") })

        let two = try Self.check(order + range + named, records: [intel, amd])
        #expect(two.problems.isEmpty, "\(two.problems)")
        #expect(two.passed)
        #expect(two.cpuTypes.contains { $0.hasSuffix("'chain: GCD < NIO': AMD EPYC (1), Intel Xeon (1)") })

        let unsaid = try Self.check(
            "GCD is below NIO per link. <!-- claim: chain on Intel Xeon: GCD < NIO -->\n", records: [intel, amd])
        #expect(unsaid.problems.contains { $0.contains("has a claim about Intel Xeon machines but does not say so") })
    }

    @Test("a range wider than ±25 % of its middle predicts nothing")
    func rangeWidth() throws {
        #expect(try ProseClaims.parse("chain: QN in 3...5").malformation == nil)
        #expect(try ProseClaims.parse("chain: QN in 3...5.1").malformation != nil)
        #expect(try ProseClaims.parse("cancel: Swift concurrency in 14...50").malformation != nil)
        #expect(try ProseClaims.parse("chain: FBL < QN").malformation == nil)
    }

    @Test("a statement that compares needs a claim, by word or figure; one about some machines says which")
    func problems() throws {
        let names = ClaimCheck.names
        let text = """
            # Review

            FBL is the fastest per fan-out observer.

            - QN takes 30 % longer than FBL per link.
            - QN costs 1.3× FBL per link. <!-- claim: chain: QN / FBL in 1.1...1.6 -->
            - FBL is below QN per link on 2 cores. <!-- claim: chain on 2 cores: FBL < QN -->
            - FBL is below QN per link. <!-- claim: chain on 16 cores: FBL < QN -->
            - AY is untyped.

            <!-- BEGIN generated from benchmarks.json -->
            | FBL | 2.6× |
            <!-- END generated -->
            """
        let problems = try ProseClaims.problems(in: text, names: names)
        #expect(problems.count == 3, "\(problems)")
        #expect(problems[0].problem.contains("fastest per fan-out") && problems[0].line == 3)
        #expect(problems[1].problem.contains("30 % longer") && problems[1].line == 5)
        #expect(problems[2].problem.hasPrefix("has a claim about 16-core machines") && problems[2].line == 8)
    }

    @Test("a line that starts with a figure continues its statement; `1. ` opens a list item")
    func figuresAtTheStartOfALine() throws {
        let text = """
            On 2 cores, FBL took 1.20× and
            1.42× raw GCD's time per link. <!-- claim: chain on 2 cores: FBL in 1.1...1.6 -->
            1. QN costs 1.3× FBL per link.
            2) AY is untyped.
            """
        let statements = try ProseClaims.statements(in: text)
        #expect(statements.map(\.line) == [1, 3, 4])
        #expect(statements.first?.claims.count == 1)
        #expect(ProseClaims.startsOrderedListItem("12. item") && !ProseClaims.startsOrderedListItem("1.42× more"))
    }

    @Test("a change to comments or blank lines is no change to a design's code")
    func codeIgnoresComments() {
        let before = "/// Docs.\nfunc f() {\n    // why\n    return 1 // one\n}\n"
        let after = "/// Other docs.\n\nfunc f() {\n    return 1\n}\n/* a\n block */\n"
        #expect(RecordPolicy.code(of: before) == RecordPolicy.code(of: after))
        #expect(RecordPolicy.code(of: before) != RecordPolicy.code(of: "func f() {\n    return 2\n}\n"))
    }

    @Test("a line the formatter breaks or joins is no change to a design's code; a changed token is")
    func tokensIgnoreLayout() {
        let before = "func f(a: Int, b: Int) -> Int { a + b }\n"
        let after = "func f(\n    a: Int, b: Int\n) -> Int {\n    a + b\n}\n"
        #expect(RecordPolicy.tokens(of: before) == RecordPolicy.tokens(of: after))
        #expect(RecordPolicy.tokens(of: before) != RecordPolicy.tokens(of: "func f(a: Int, b: Int) -> Int { a - b }\n"))
    }

    @Test(
        "a record made before a measurement changed is left out for that contender and scenario only",
        .enabled(if: policy.hasHistory, "needs a git checkout"))
    func measurementChanges() async throws {
        let before = Self.record(commit: "5af898b")
        let change = try #require(RecordPolicy.measurementChanges.first { $0.contenders == ["Swift concurrency"] })
        let since = Self.record(commit: change.since)
        // Off the cooperative pool: the policy asks git.
        let reasons = try await offPool("git, about the records", timeout: longTimeout(.seconds(120))) {
            [("workflow", before), ("chain", before), ("workflow", since)].map { scenario, record in
                Self.policy.reason(leaving: record, outFor: ["Swift concurrency", "GCD"], on: scenario)
            }
        }
        #expect(reasons[0] != nil)
        #expect(reasons[1] == nil)
        #expect(reasons[2] == nil)
    }
}
