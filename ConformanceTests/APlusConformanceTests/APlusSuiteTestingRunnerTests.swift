import APlusSuite
import APlusSuiteTesting
import DesignRegistry
import TestSupport
import Testing

/// The Swift Testing runner as an outside library calls it, in the serialized "Promises/A+" suite
/// as the suite's documentation advises. (The mutation and harness suites still run A+ cases at
/// the same time; that only delays cases, which wait for what they expect.)
extension APlusConformanceTests {
    static let fblClause2_1_2 = (try? APlusSuite.cases(for: Design.fbl.adapter, clauses: ["2.1.2"])) ?? []

    @Test("runner, one Swift Testing case per A+ case: each is listed under its full name")
    func perCaseNames() {
        #expect(Self.fblClause2_1_2.count == 6)
        #expect(Self.fblClause2_1_2.allSatisfy { $0.testDescription == $0.name && $0.name.hasPrefix("2.1.2.1: ") })
    }

    @Test("runner, one Swift Testing case per A+ case: FBL, 2.1.2", arguments: fblClause2_1_2)
    func perCase(_ aplusCase: APlusCase) async {
        await aplusCase.expectPass(timeout: defaultTestTimeout)
    }

    @Test("runner: a failing case is recorded as an issue under its full name, and counted")
    func recordsFailures() async throws {
        var summary: APlusSummary?
        try await withKnownIssue {
            summary = try await APlusSuite.expectConformance(
                of: MutantAdapter<RecoversOwnThrowForRunner>.self, clauses: ["2.2.6"],
                title: "Promises/A+ then(f)-then-recover mutant (expected to fail)", timeout: defaultTestTimeout)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("2.2.6: ") && $0.rawValue.contains("one of which throws") }
        }
        MutantPromise<RecoversOwnThrowForRunner>.breakCycles()
        // Exactly 2.2.6.1's "one of which throws" in its three timings (MutationTests).
        #expect(summary?.run == 30)
        #expect(summary?.passed == 27)
    }
}
