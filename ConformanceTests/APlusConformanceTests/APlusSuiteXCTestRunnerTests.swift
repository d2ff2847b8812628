import APlusSuite
import APlusSuiteXCTest
import DesignRegistry
import Synchronization
import TestSupport
import XCTest

/// The XCTest runner, as an outside library calls it: an `async` test method, whose waiting lets
/// XCTest service the main queue that the cases' timers use.
final class APlusSuiteXCTestRunnerTests: XCTestCase {
    /// Failures recorded while ``capturing`` is set, kept instead of failing the test; guarded by
    /// its mutex (XCTest records from the thread that calls `XCTFail`).
    private let captured = Mutex<(capturing: Bool, failures: [String])>((false, []))

    /// Keeps `description` if capturing; returns whether it did.
    private func keep(_ description: String) -> Bool {
        captured.withLock { state in
            if state.capturing { state.failures.append(description) }
            return state.capturing
        }
    }

    #if canImport(Darwin)
        // Apple's XCTest records through `record(_:)`; `recordFailure` is deprecated there.
        override func record(_ issue: XCTIssue) {
            if !keep(issue.compactDescription) { super.record(issue) }
        }
    #else
        override func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            if !keep(description) {
                super.recordFailure(
                    withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            }
        }
    #endif

    func testRunsTheChosenClausesAndSummarisesThem() async throws {
        let summary = try await APlusSuite.assertConformance(
            of: Design.fbl.adapter, clauses: ["2.1", "2.3.1"], title: "Promises/A+ FBL (XCTest runner)",
            timeout: defaultTestTimeout)
        XCTAssertEqual(summary.clauses.map(\.clause), ["2.1.2", "2.1.3", "2.3.1"])
        XCTAssertEqual(summary.run, 14)
        XCTAssertTrue(summary.allPassed)
    }

    func testRecordsEachFailingCaseUnderItsFullName() async throws {
        captured.withLock { $0.capturing = true }
        // Stop capturing however the call ends: a thrown error is recorded through the same method.
        let summary: APlusSummary
        do {
            defer { captured.withLock { $0.capturing = false } }
            summary = try await APlusSuite.assertConformance(
                of: MutantAdapter<Synchronous>.self, clauses: ["2.2.4"],
                title: "Promises/A+ synchronous mutant (XCTest runner, expected to fail)", timeout: defaultTestTimeout)
        }
        let failures = captured.withLock { $0.failures }
        MutantPromise<Synchronous>.breakCycles()
        XCTAssertEqual(summary.run, 16)
        XCTAssertEqual(failures.count, 12)
        XCTAssertEqual(failures.count, summary.run - summary.passed)
        XCTAssertTrue(failures.allSatisfy { $0.contains("2.2.4: ") }, "\(failures)")
    }

    func testRejectsAClauseThatSelectsNoCase() async {
        do {
            try await APlusSuite.assertConformance(of: Design.fbl.adapter, clauses: ["2.2.5"])
            XCTFail("expected an error for clause 2.2.5")
        } catch {
            XCTAssertEqual(error, .unknownClauses(["2.2.5"], known: APlusSuite.clauses + ["Additions", "Threads"]))
        }
    }
}
