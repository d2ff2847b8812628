import APlusSuite
import APlusSuiteXCTest
import XCTest

// snippet: aplus-xctest
final class TinyPromiseXCTests: XCTestCase {
    /// Clause 2.3 (the resolution procedure) through the XCTest runner, from an `async` test
    /// method, while which XCTest services the main queue the cases' timers use.
    func testResolutionProcedure() async throws {
        let summary = try await APlusSuite.assertConformance(
            of: TinyAdapter.self, clauses: ["2.3"], title: "Promises/A+ 2.3 TinyPromise")
        XCTAssertEqual(summary.run, 540)
    }
}
// end-snippet
