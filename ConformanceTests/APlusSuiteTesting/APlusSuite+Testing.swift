public import APlusSuite
public import Testing

extension APlusSuite {
    /// Runs the Promises/A+ suite against the library that `adapter` drives, inside a Swift Testing
    /// test: records one issue per failing case, under the case's full name, and prints one
    /// summary line (passed per clause).
    ///
    /// ```swift
    /// import APlusSuite
    /// import APlusSuiteTesting
    /// import Testing
    ///
    /// @Test func promisesAPlus() async throws {
    ///     try await APlusSuite.expectConformance(of: MyAdapter.self)
    /// }
    /// ```
    ///
    /// The cases run one at a time, since they time main-queue timers against each other. Keep
    /// every test that runs A+ cases in one `.serialized` suite: Swift Testing runs separate
    /// suites in parallel.
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
    ///   - sourceLocation: Where the issues of failing cases are recorded; the caller's by default.
    /// - Returns: Passed and run cases per clause.
    /// - Throws: `APlusSuiteError` for a clause name that selects no case or an empty list of
    ///   clauses, before any case runs.
    @discardableResult
    public static func expectConformance<Adapter: APlusAdapter>(
        of adapter: Adapter.Type,
        clauses: [String]? = nil,
        options: Options = [],
        title: String = "Promises/A+",
        timeout: Duration = APlusCase.defaultTimeout,
        deadline: Duration = APlusSuite.defaultDeadline,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws(APlusSuiteError) -> APlusSummary {
        try await run(
            adapter, clauses: clauses, options: options, title: title, timeout: timeout, deadline: deadline
        ) { failure in
            Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
        }
    }
}

extension APlusCase: CustomTestStringConvertible {
    /// The case's full name, so that a parameterised test lists each case under it.
    public var testDescription: String { name }

    /// Runs this case and records an issue if it fails, for a parameterised test:
    ///
    /// ```swift
    /// @Test(.serialized, arguments: APlusSuite.cases(for: MyAdapter.self))
    /// func promisesAPlus(_ aplusCase: APlusCase) async {
    ///     await aplusCase.expectPass()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - timeout: How long the case may take.
    ///   - sourceLocation: Where the issue is recorded; the caller's by default.
    public func expectPass(
        timeout: Duration = APlusCase.defaultTimeout, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        if let failure = await run(timeout: timeout).failureDescription {
            Issue.record("\(name): \(failure)", sourceLocation: sourceLocation)
        }
    }
}
