extension APlusSuite {
    /// Runs `cases` one after the other and returns how many passed per clause.
    ///
    /// The cases rely on the relative timing of main-queue timers (0 < 15 < 50 < 100 < 150 ms),
    /// so they run one at a time; the main queue must be serviced while this waits (Swift Testing
    /// does it, and so does XCTest while an `async` test awaits). The test-framework runners,
    /// `APlusSuiteTesting` and `APlusSuiteXCTest`, call this and record each failure.
    ///
    /// ```swift
    /// let summary = await APlusSuite.run(APlusSuite.cases(for: MyAdapter.self)) { aplusCase, outcome in
    ///     if !outcome.passed { print("\(aplusCase.name): \(outcome)") }
    /// }
    /// print(summary.line(title: "Promises/A+ MyPromise"))
    /// ```
    ///
    /// - Parameters:
    ///   - cases: The cases to run, from ``cases(for:options:)``, ``cases(for:clauses:options:)`` or
    ///     ``additions(for:)``.
    ///   - timeout: How long one case may take before it counts as timed out; the longest
    ///     deliberate wait in the suite is 150 ms, so the default leaves room for a loaded machine.
    ///   - report: Called after each case with its outcome, on the caller's task.
    /// - Returns: Passed and run cases per clause.
    ///
    /// After ``consecutiveTimeoutsBeforeGivingUp`` cases in a row time out, the library is taken
    /// not to settle at all (or the main queue not to be serviced): the remaining cases are not
    /// run, and each is reported as failed with a message that says why, so that a broken library
    /// costs a few timeouts, not one per case.
    public static func run(
        _ cases: [APlusCase],
        timeout: Duration = APlusCase.defaultTimeout,
        report: (APlusCase, CaseOutcome) -> Void = { _, _ in }
    ) async -> APlusSummary {
        var summary = APlusSummary()
        var timeoutsInARow = 0
        for aplusCase in cases {
            let outcome: CaseOutcome
            if timeoutsInARow >= consecutiveTimeoutsBeforeGivingUp {
                outcome = .failed([
                    "not run: \(timeoutsInARow) cases in a row timed out, so the library seems never to settle "
                        + "(or the main queue is not serviced)"
                ])
            } else {
                outcome = await aplusCase.run(timeout: timeout)
                if case .timedOut = outcome { timeoutsInARow += 1 } else { timeoutsInARow = 0 }
            }
            summary.record(clause: aplusCase.clause, passed: outcome.passed)
            report(aplusCase, outcome)
        }
        return summary
    }

    /// Runs the named clauses (every case, the twelve additions included, when `clauses` is `nil`)
    /// against the library that `adapter` drives, reports each failing case to `recordFailure`
    /// with its full name and what went wrong, and prints one summary line: what the test
    /// frameworks' runners (`APlusSuiteTesting`, `APlusSuiteXCTest`) do, with their own way of
    /// recording a failure.
    ///
    /// - Parameters:
    ///   - adapter: The adapter that drives the library under test.
    ///   - clauses: The clauses to run (see ``cases(for:clauses:options:)``); `nil` runs the 648
    ///     cases and the twelve additions.
    ///   - options: The cases to add to the 648, such as ``Options/thenProperties``.
    ///   - title: The summary line's title.
    ///   - timeout: How long one case may take.
    ///   - recordFailure: Called for each failing case, with `"<full name>: <what went wrong>"`.
    /// - Returns: Passed and run cases per clause.
    /// - Throws: ``APlusSuiteError`` for a clause list that selects no case, before any case runs.
    public static func run<Adapter: APlusAdapter>(
        _ adapter: Adapter.Type,
        clauses: [String]?,
        options: Options = [],
        title: String,
        timeout: Duration = APlusCase.defaultTimeout,
        recordFailure: (String) -> Void
    ) async throws(APlusSuiteError) -> APlusSummary {
        let cases =
            try clauses.map { clauses throws(APlusSuiteError) in
                try Self.cases(for: adapter, clauses: clauses, options: options)
            } ?? Self.cases(for: adapter, options: options) + additions(for: adapter)
        let summary = await run(cases, timeout: timeout) { aplusCase, outcome in
            if let failure = outcome.failureDescription { recordFailure("\(aplusCase.name): \(failure)") }
        }
        print(summary.line(title: title))
        return summary
    }

    /// How many cases in a row may time out before ``run(_:timeout:report:)`` gives up on the
    /// rest. No correct library times out at all.
    public static let consecutiveTimeoutsBeforeGivingUp = 3
}

/// Passed and run cases per clause, in the order the clauses were first run.
public struct APlusSummary: Sendable, Equatable {
    /// One clause's counts.
    public struct Clause: Sendable, Equatable {
        /// The clause, e.g. `2.3.3`, or `Additions`.
        public let clause: String
        /// How many of its cases passed.
        public fileprivate(set) var passed: Int
        /// How many of its cases ran.
        public fileprivate(set) var run: Int
    }

    /// The clauses that ran, in order.
    public private(set) var clauses: [Clause] = []

    /// An empty summary.
    public init() {}

    /// Counts one case of `clause`.
    public mutating func record(clause: String, passed: Bool) {
        if let index = clauses.firstIndex(where: { $0.clause == clause }) {
            clauses[index].passed += passed ? 1 : 0
            clauses[index].run += 1
        } else {
            clauses.append(Clause(clause: clause, passed: passed ? 1 : 0, run: 1))
        }
    }

    /// How many cases passed.
    public var passed: Int { clauses.reduce(0) { $0 + $1.passed } }
    /// How many cases ran.
    public var run: Int { clauses.reduce(0) { $0 + $1.run } }
    /// Whether every case that ran passed.
    public var allPassed: Bool { passed == run }

    /// One line for a log: `Promises/A+ MyPromise: 648 of 648 passed (2.1.2 6/6, 2.1.3 6/6, …)`, each
    /// clause with a failure marked `FAILED`.
    public func line(title: String) -> String {
        let perClause = clauses.map { clause in
            "\(clause.clause) \(clause.passed)/\(clause.run)" + (clause.passed == clause.run ? "" : " FAILED")
        }
        return "\(title): \(passed) of \(run) passed (\(perClause.joined(separator: ", ")))"
    }
}
