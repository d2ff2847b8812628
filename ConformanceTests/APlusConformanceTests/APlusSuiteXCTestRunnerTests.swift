import APlusSuite
import APlusSuiteXCTest
import DesignRegistry
import XCTest

/// The XCTest runner, as an outside library calls it: an `async` test method, whose waiting lets
/// XCTest service the main queue that the cases' timers use.
final class APlusSuiteXCTestRunnerTests: XCTestCase {
    func testRunsTheChosenClausesAndSummarisesThem() async throws {
        let summary = try await APlusSuite.assertConformance(
            of: Design.fbl.adapter, clauses: ["2.1", "2.3.1"], title: "Promises/A+ FBL (XCTest runner)")
        XCTAssertEqual(summary.clauses.map(\.clause), ["2.1.2", "2.1.3", "2.3.1"])
        XCTAssertEqual(summary.run, 14)
        XCTAssertTrue(summary.allPassed)
    }

    func testRejectsAClauseThatSelectsNoCase() async {
        do {
            try await APlusSuite.assertConformance(of: Design.fbl.adapter, clauses: ["2.2.5"])
            XCTFail("expected an error for clause 2.2.5")
        } catch {
            XCTAssertEqual(error, .unknownClauses(["2.2.5"], known: APlusSuite.clauses + ["Additions"]))
        }
    }
}
