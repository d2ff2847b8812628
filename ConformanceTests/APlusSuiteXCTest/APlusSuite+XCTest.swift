public import APlusSuite
import XCTest

extension APlusSuite {
    /// Runs the Promises/A+ suite against the library that `adapter` drives, inside an XCTest
    /// test: one `XCTFail` per failing case, under the case's full name, and one summary line
    /// (passed per clause).
    ///
    /// ```swift
    /// import APlusSuite
    /// import APlusSuiteXCTest
    /// import XCTest
    ///
    /// final class PromisesAPlusTests: XCTestCase {
    ///     func testConformance() async throws {
    ///         try await APlusSuite.assertConformance(of: MyAdapter.self)
    ///     }
    /// }
    /// ```
    ///
    /// Call it from an `async` test method: XCTest services the main queue, which the cases' timers
    /// use, while such a method awaits.
    ///
    /// - Parameters:
    ///   - adapter: The adapter that drives the library under test.
    ///   - clauses: The clauses to run (see `APlusSuite.cases(for:clauses:options:)`); `nil` runs the
    ///     648 cases, the cases `options` adds, the eighteen additions and the six cases for
    ///     several threads.
    ///   - options: The cases to add to the 648 (`APlusSuite.Options`), such as the cases whose
    ///     thenables have a `then` property.
    ///   - title: The summary line's title.
    ///   - timeout: How long one case may take.
    ///   - deadline: How long the whole run may take; the run then stops, saying so.
    ///   - file: The file failures are reported in; the caller's by default.
    ///   - line: The line failures are reported at; the caller's by default.
    /// - Returns: Passed and run cases per clause.
    /// - Throws: `APlusSuiteError` for a clause name that selects no case or an empty list of
    ///   clauses, before any case runs.
    @discardableResult
    public static func assertConformance<Adapter: APlusAdapter>(
        of adapter: Adapter.Type,
        clauses: [String]? = nil,
        options: Options = [],
        title: String = "Promises/A+",
        timeout: Duration = APlusCase.defaultTimeout,
        deadline: Duration = APlusSuite.defaultDeadline,
        file: StaticString = #filePath,
        line: UInt = #line
    ) async throws(APlusSuiteError) -> APlusSummary {
        try await run(
            adapter, clauses: clauses, options: options, title: title, timeout: timeout, deadline: deadline
        ) { failure in
            XCTFail(failure, file: file, line: line)
        }
    }
}
