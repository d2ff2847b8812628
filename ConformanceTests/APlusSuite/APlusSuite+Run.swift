extension APlusSuite {
    /// Runs `cases` one after the other and returns how many passed per clause, and why the run
    /// stopped early if it did.
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
    /// The run always ends, with a summary that says what it did not run and why. It stops early,
    /// and counts the cases it did not run in ``APlusSummary/notRun``, when:
    /// - ``consecutiveTimeoutsBeforeGivingUp`` cases in a row time out: the library seems never
    ///   to settle, or the main queue is not serviced;
    /// - the library keeps calling into a case that has ended (``runawayCallsLimit`` calls): its
    ///   callbacks run again and again, and would flood the main queue for the rest of the run;
    /// - `deadline` passes: the case under way then counts as timed out.
    ///
    /// - Parameters:
    ///   - cases: The cases to run, from ``cases(for:options:)``, ``cases(for:clauses:options:)``,
    ///     ``additions(for:)`` or ``threadCases(for:)``.
    ///   - timeout: How long one case may take before it counts as timed out; the longest
    ///     deliberate wait in the suite is 150 ms, and a case for several threads runs its rounds
    ///     for about 5 s at most, so the default leaves room for a loaded machine.
    ///   - deadline: How long the whole run may take.
    ///   - report: Called after each case that ran, with its outcome, on the caller's task.
    /// - Returns: Passed and run cases per clause, the deepest clause of each failing case, and
    ///   why the run stopped early, if it did.
    public static func run(
        _ cases: [APlusCase],
        timeout: Duration = APlusCase.defaultTimeout,
        deadline: Duration = defaultDeadline,
        report: (APlusCase, CaseOutcome) -> Void = { _, _ in }
    ) async -> APlusSummary {
        var summary = APlusSummary()
        let clock = ContinuousClock()
        let end = clock.now + deadline
        var timeoutsInARow = 0
        var ended = EndedCases()
        for (index, aplusCase) in cases.enumerated() {
            let stop: String? =
                if timeoutsInARow >= consecutiveTimeoutsBeforeGivingUp {
                    "\(timeoutsInARow) cases in a row timed out, so the library seems never to settle "
                        + "(or the main queue is not serviced)"
                } else if let runaway = ended.runaway() {
                    runaway
                } else if clock.now >= end {
                    "the run's deadline (\(deadline)) passed"
                } else {
                    nil
                }
            if let stop {
                summary.stop(reason: stop, notRun: cases.count - index)
                break
            }
            let untilDeadline = end - clock.now
            let cutByDeadline = untilDeadline < timeout
            var outcome = await aplusCase.run(timeout: cutByDeadline ? untilDeadline : timeout) { lateCalls in
                ended.watch(lateCalls, name: aplusCase.name)
            }
            if case .timedOut(let failures) = outcome {
                timeoutsInARow += 1
                if cutByDeadline {
                    outcome = .timedOut(
                        failures + ["the run's deadline (\(deadline)) cut this case short, before its own timeout"])
                }
            } else {
                timeoutsInARow = 0
            }
            summary.record(aplusCase, outcome: outcome)
            report(aplusCase, outcome)
        }
        if summary.stopReason == nil, let runaway = ended.runaway() {
            summary.stop(reason: runaway, notRun: 0)
        }
        return summary
    }

    /// Runs the named clauses (when `clauses` is `nil`: the 648 cases, the cases `options` adds,
    /// the eighteen additions and the six for several threads) against the library that
    /// `adapter` drives, reports each failing case to `recordFailure` with its full name and what
    /// went wrong, and prints one summary line: what the test frameworks' runners
    /// (`APlusSuiteTesting`, `APlusSuiteXCTest`) do, with their own way of recording a failure.
    ///
    /// A run that stops early reports that as one more failure, with the reason and the number
    /// of cases it did not run. The summary names what the run left out: the cases of 2.3.3 whose
    /// thenables have a `then` property, unless `options` holds ``Options/thenProperties``, and
    /// the clauses `clauses` did not select.
    ///
    /// - Parameters:
    ///   - adapter: The adapter that drives the library under test.
    ///   - clauses: The clauses to run (see ``cases(for:clauses:options:)``); `nil` runs them all.
    ///   - options: The cases to add to the 648, such as ``Options/thenProperties``.
    ///   - title: The summary line's title.
    ///   - timeout: How long one case may take.
    ///   - deadline: How long the whole run may take.
    ///   - recordFailure: Called for each failing case, with `"<full name>: <what went wrong>"`.
    /// - Returns: Passed and run cases per clause.
    /// - Throws: ``APlusSuiteError`` for a clause list that selects no case, before any case runs.
    public static func run<Adapter: APlusAdapter>(
        _ adapter: Adapter.Type,
        clauses: [String]?,
        options: Options = [],
        title: String,
        timeout: Duration = APlusCase.defaultTimeout,
        deadline: Duration = defaultDeadline,
        recordFailure: (String) -> Void
    ) async throws(APlusSuiteError) -> APlusSummary {
        let cases =
            try clauses.map { clauses throws(APlusSuiteError) in
                try Self.cases(for: adapter, clauses: clauses, options: options)
            } ?? Self.cases(for: adapter, options: options) + additions(for: adapter) + threadCases(for: adapter)
        var summary = await run(cases, timeout: timeout, deadline: deadline) { aplusCase, outcome in
            if let failure = outcome.failureDescription { recordFailure("\(aplusCase.name): \(failure)") }
        }
        for what in leftOut(clauses: Set(cases.map(\.clause)), options: options) { summary.leaveOut(what) }
        if options.contains(.thenProperties) && handsPropertyThenablesOverUnchanged(adapter) {
            summary.leaveOut(
                "what the 42 cases of `.thenProperties` check: the adapter hands the suite's property thenables "
                    + "over unchanged (the default `propertyThenable(_:)`), so the library fulfils with them; "
                    + "implement `propertyThenable(_:)` (Writing an adapter), or drop the option")
        }
        if let reason = summary.stopReason {
            recordFailure("the run stopped early, with \(summary.notRun) cases not run: \(reason)")
        }
        print(summary.line(title: title))
        return summary
    }

    /// What a run of the cases of `clauses` with `options` leaves out, in words: the cases of
    /// 2.3.3 whose thenables have a `then` property, unless `options` adds them, and the clauses
    /// not selected.
    static func leftOut(clauses ran: Set<String>, options: Options) -> [String] {
        var leftOut: [String] = []
        if !options.contains(.thenProperties) && ran.contains("2.3.3") {
            leftOut.append(
                "the 42 cases of 2.3.3 whose thenable has a `then` property (a `then` read more than once, "
                    + "a read that throws, a `then` that is not a function); pass `options: .thenProperties` "
                    + "if the library can receive such a thenable")
        }
        let notSelected = (clauses + [additionsClause, threadsClause]).filter { !ran.contains($0) }
        if !notSelected.isEmpty {
            leftOut.append("clauses not selected: " + notSelected.joined(separator: ", "))
        }
        return leftOut
    }

    /// Whether `adapter` hands a property thenable over as it is, as the default
    /// ``APlusAdapter/propertyThenable(_:)`` does: its library then cannot receive one.
    static func handsPropertyThenablesOverUnchanged<Adapter: APlusAdapter>(_: Adapter.Type) -> Bool {
        let probe = ScriptedPropertyThenable { _ in nil }
        guard let handed = Adapter.propertyThenable(probe), type(of: handed as Any) is AnyClass else { return false }
        return (handed as AnyObject) === probe
    }

    /// How many cases in a row may time out before ``run(_:timeout:deadline:report:)`` gives up
    /// on the rest. No correct library times out at all.
    public static let consecutiveTimeoutsBeforeGivingUp = 3

    /// How many times the library may call into a case that has ended before
    /// ``run(_:timeout:deadline:report:)`` stops: a correct library makes no such call (a case
    /// ends a few main-queue turns after its last expected callback).
    public static let runawayCallsLimit = 1_000

    /// How long a whole run may take unless the caller says otherwise: far more than every case
    /// takes on a loaded machine, so that it only stops a run that would not end.
    public static let defaultDeadline: Duration = .seconds(20 * 60)
}

/// The calls into the cases that have ended, so that a run sees a library that keeps calling
/// into one of them.
private struct EndedCases {
    /// The most recent cases: a runaway shows up within a few cases of the one it started in.
    private var entries: [(name: String, lateCalls: LateCallCount)] = []

    mutating func watch(_ lateCalls: LateCallCount, name: String) {
        entries.append((name, lateCalls))
        if entries.count > 16 { entries.removeFirst() }
    }

    /// Why the run should stop, if the library has called into an ended case too often.
    func runaway() -> String? {
        for entry in entries {
            let calls = entry.lateCalls.value
            guard calls >= APlusSuite.runawayCallsLimit else { continue }
            return "the library kept calling into the case \"\(entry.name)\" after it ended (\(calls) calls): "
                + "its callbacks run again and again, and would flood the main queue for the rest of the run"
        }
        return nil
    }
}

/// Passed and run cases per clause, in the order the clauses were first run; the deepest clause
/// each failing case belongs to; what the run left out; and why it stopped early, if it did.
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

    /// A clause that failing cases are under, with how many.
    public struct FailingClause: Sendable, Equatable {
        /// The deepest clause number in a failing case's path, e.g. `2.3.3.3.1`.
        public let clause: String
        /// How many failing cases have it as their deepest clause.
        public fileprivate(set) var failures: Int
    }

    /// The clauses that ran, in order.
    public private(set) var clauses: [Clause] = []
    /// The deepest clause number each failing case is under (such as `2.3.3.3.1`, where
    /// ``Clause`` counts it under `2.3.3`), with how many failing cases are under it, in the
    /// order they first failed.
    public private(set) var deepestFailingClauses: [FailingClause] = []
    /// How many cases the run did not run because it stopped early.
    public private(set) var notRun = 0
    /// Why the run stopped early, or `nil` if it ran every case.
    public private(set) var stopReason: String?
    /// What the run left out that a library might expect it to run, in words.
    public private(set) var leftOut: [String] = []

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

    /// Counts `aplusCase` with its outcome, and the deepest clause it is under if it failed.
    mutating func record(_ aplusCase: APlusCase, outcome: CaseOutcome) {
        record(clause: aplusCase.clause, passed: outcome.passed)
        guard !outcome.passed else { return }
        let deepest = aplusCase.deepestClause
        if let index = deepestFailingClauses.firstIndex(where: { $0.clause == deepest }) {
            deepestFailingClauses[index].failures += 1
        } else {
            deepestFailingClauses.append(FailingClause(clause: deepest, failures: 1))
        }
    }

    mutating func stop(reason: String, notRun: Int) {
        stopReason = reason
        self.notRun = notRun
    }

    mutating func leaveOut(_ what: String) { leftOut.append(what) }

    /// How many cases passed.
    public var passed: Int { clauses.reduce(0) { $0 + $1.passed } }
    /// How many cases ran.
    public var run: Int { clauses.reduce(0) { $0 + $1.run } }
    /// Whether every case ran and passed.
    public var allPassed: Bool { passed == run && stopReason == nil }

    /// One line for a log: `Promises/A+ MyPromise: 726 of 726 passed (2.1.2 6/6, 2.1.3 6/6, …)`,
    /// each clause with a failure marked `FAILED`, then the deepest failing clauses, why the run
    /// stopped early and what it left out, when there are any.
    public func line(title: String) -> String {
        let perClause = clauses.map { clause in
            "\(clause.clause) \(clause.passed)/\(clause.run)" + (clause.passed == clause.run ? "" : " FAILED")
        }
        var line = "\(title): \(passed) of \(run) passed (\(perClause.joined(separator: ", ")))"
        if !deepestFailingClauses.isEmpty {
            line +=
                "; deepest failing clauses: "
                + deepestFailingClauses.map { "\($0.clause) (\($0.failures))" }.joined(separator: ", ")
        }
        if let stopReason {
            line += notRun > 0 ? "; stopped early, \(notRun) cases not run: \(stopReason)" : "; then: \(stopReason)"
        }
        if !leftOut.isEmpty { line += "; left out: " + leftOut.joined(separator: "; ") }
        return line
    }
}

extension APlusCase {
    /// The deepest clause number in the case's path, such as `2.3.3.3.1`; the clause itself
    /// (`Additions`, `Threads`) when the path has no deeper number.
    var deepestClause: String {
        let numbers = path.map { component in
            var number = String(component.prefix { $0.isNumber || $0 == "." })
            while number.hasSuffix(".") { number.removeLast() }
            return number
        }.filter { $0.contains(".") }
        return numbers.max { $0.split(separator: ".").count < $1.split(separator: ".").count } ?? clause
    }
}
