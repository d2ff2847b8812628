import Dispatch
import PromiseRuntime
import TestSupport
import Testing

@testable import APlusSuite

/// The case runner itself: how a case ends, and that it lets go of what the case made.
@Suite("Promises/A+ case runner")
struct CaseHarnessTests {
    @Test("a case that calls done() passes, and its context is freed once it has finished")
    func finishedCaseIsFreed() async throws {
        let context = Weak<CaseContext>(nil)
        let aCase = APlusCase(path: ["passes"]) { caseContext in
            context.set(caseContext)
            caseContext.done()
        }
        // A timeout far longer than the wait below: the timer must not be what keeps the
        // context (and every promise its locals hold) alive.
        #expect(await aCase.run(timeout: .seconds(600)) == .passed)
        try await eventually("the finished case's context to be freed") { context.object == nil }
    }

    @Test("a case whose every callback was dropped fails at once instead of waiting for its timeout")
    func droppedCaseFails() async {
        // The body keeps nothing, as a design that drops a pending promise's callbacks would.
        let aCase = APlusCase(path: ["dropped"]) { _ in }
        let outcome = await aCase.run(timeout: longTimeout(.seconds(60)))
        guard case .failed(let failures) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(failures.count == 1)
        #expect(failures.first == CaseContext.neverSettledMessage)
        #expect(
            failures.first?.hasPrefix("expected the promise to settle, and it never did, and nothing keeps it alive")
                == true)
    }

    @Test("the summary counts each clause in the order it first ran and marks a clause with a failure")
    func summaryLine() {
        var summary = APlusSummary()
        summary.record(clause: "2.3.3", passed: true)
        summary.record(clause: "2.10.1", passed: true)
        summary.record(clause: "2.2.1", passed: true)
        summary.record(clause: "2.2.1", passed: false)
        #expect(
            summary.line(title: "Promises/A+ FBL")
                == "Promises/A+ FBL: 3 of 4 passed (2.3.3 1/1, 2.10.1 1/1, 2.2.1 1/2 FAILED)")
        #expect(summary.passed == 3 && summary.run == 4 && !summary.allPassed)
    }

    @Test("the summary names the deepest clause of each failing case, why the run stopped, and what it left out")
    func summaryNamesDeepestClauseStopAndLeftOut() {
        var summary = APlusSummary()
        let deep = APlusCase(path: [
            "2.3.3: Otherwise, …", "2.3.3.3: If `then` is a function, …", "2.3.3.3.1: If/when …", "already-fulfilled",
        ]) { _ in }
        let shallow = APlusCase(path: ["2.1.2: When fulfilled, …", "2.1.2.1: When fulfilled, …", "trying to reject"]) {
            _ in
        }
        let threads = APlusCase(path: ["Threads: …", "Settles racing …", "8 threads"]) { _ in }
        summary.record(deep, outcome: .failed(["x"]))
        summary.record(deep, outcome: .failed(["x"]))
        summary.record(shallow, outcome: .passed)
        summary.record(threads, outcome: .timedOut([]))
        summary.stop(reason: "the run's deadline (1 s) passed", notRun: 5)
        for what in APlusSuite.leftOut(clauses: ["2.3.3", "Threads"], options: []) { summary.leaveOut(what) }
        #expect(summary.deepestFailingClauses.map(\.clause) == ["2.3.3.3.1", "Threads"])
        #expect(summary.deepestFailingClauses.map(\.failures) == [2, 1])
        let line = summary.line(title: "Promises/A+ Mutant")
        #expect(
            line.hasPrefix(
                "Promises/A+ Mutant: 1 of 4 passed (2.3.3 0/2 FAILED, 2.1.2 1/1, Threads 0/1 FAILED); deepest failing clauses: 2.3.3.3.1 (2), Threads (1); stopped early, 5 cases not run: the run's deadline (1 s) passed; left out: the 42 cases of 2.3.3 whose thenable has a `then` property"
            ), "\(line)")
        #expect(
            line.hasSuffix(
                "clauses not selected: 2.1.2, 2.1.3, 2.2.1, 2.2.2, 2.2.3, 2.2.4, 2.2.6, 2.2.7, 2.3.1, 2.3.2, 2.3.4, Additions"
            ), "\(line)")
        #expect(!summary.allPassed)
        #expect(APlusSuite.leftOut(clauses: ["2.3.3"], options: .thenProperties).count == 1)
    }

    @Test("an adapter that hands property thenables over unchanged is told that .thenProperties checks nothing")
    func defaultPropertyThenableIsNamed() {
        // NonErrorThenableReasons keeps the default `propertyThenable(_:)`; the mutant's adapter
        // wraps the suite's thenable in one of its library's own.
        #expect(APlusSuite.handsPropertyThenablesOverUnchanged(NonErrorThenableReasons.self))
        #expect(!APlusSuite.handsPropertyThenablesOverUnchanged(MutantAdapter<Correct>.self))
    }

    @Test("a run whose deadline passes stops: the case under way times out, and the rest are counted as not run")
    func stopsAtTheDeadline() async {
        let kept = PromiseMutex<[CaseContext]>([])
        let cases = (1...4).map { number in
            APlusCase(path: ["hangs \(number)"]) { context in kept.withLock { $0.append(context) } }
        }
        var outcomes: [CaseOutcome] = []
        // A deadline long enough that the first case always starts before it passes.
        let summary = await APlusSuite.run(cases, timeout: .seconds(600), deadline: .seconds(2)) { _, outcome in
            outcomes.append(outcome)
        }
        #expect(summary.run == 1 && summary.notRun == 3, "\(summary)")
        #expect(summary.stopReason?.hasPrefix("the run's deadline") == true, "\(summary)")
        #expect(outcomes.first?.failureDescription?.contains("deadline") == true, "\(outcomes)")
        #expect(outcomes.count == 1)
        kept.withLock { $0.removeAll() }
    }

    /// A case for several threads waits on its own threads for the library; once the case has
    /// ended (it timed out), those waits give up at once instead of calling the library further
    /// while later cases run.
    @Test("a thread case's wait gives up as soon as its case has ended")
    func threadWaitsEndWithTheirCase() async {
        let kept = PromiseMutex<CaseContext?>(nil)
        let aCase = APlusCase(path: ["hangs"]) { context in kept.withLock { $0 = context } }
        #expect(await aCase.run(timeout: .milliseconds(100)) != .passed)
        guard let context = kept.withLock({ $0 }) else {
            Issue.record("the case kept no context")
            return
        }
        #expect(context.hasFinished)
        let started = ContinuousClock.now
        #expect(!waitForSignals(of: DispatchSemaphore(value: 0), context))
        #expect(ContinuousClock.now - started < .seconds(threadRoundWaitSeconds))
        kept.withLock { $0 = nil }
    }

    /// A library whose callbacks keep arriving after the case ended, 100 per main-queue turn for
    /// 50 turns (a flood, bounded so that it ends within the test run): the runner stops at the
    /// first case it starts after the calls pass the limit, and says which case they came into.
    @Test("a library that keeps calling into a case after it ended stops the run, with the case named")
    func stopsARunaway() async {
        let flood = APlusCase(path: ["floods"]) { context in
            context.done()
            Self.callBack(into: context, turns: 50, callsPerTurn: 100)
        }
        let quiet = (1...20).map { number in APlusCase(path: ["quiet \(number)"]) { $0.done() } }
        let summary = await APlusSuite.run([flood] + quiet, timeout: longTimeout(.seconds(60)))
        #expect(APlusSuite.runawayCallsLimit == 1_000)
        #expect(
            summary.stopReason?.hasPrefix("the library kept calling into the case \"floods\" after it ended") == true,
            "\(summary)")
        #expect(summary.notRun > 0 && summary.run + summary.notRun == 21, "\(summary)")
        #expect(summary.passed == summary.run, "\(summary)")
    }

    /// Calls `check(true)` on `context` `callsPerTurn` times per main-queue turn, for `turns` turns.
    static func callBack(into context: CaseContext, turns: Int, callsPerTurn: Int) {
        guard turns > 0 else { return }
        DispatchQueue.main.async {
            for _ in 0..<callsPerTurn { context.check(true, "") }
            callBack(into: context, turns: turns - 1, callsPerTurn: callsPerTurn)
        }
    }

    @Test(
        "after three cases in a row time out, the runner stops and counts the rest as not run instead of waiting for each"
    )
    func givesUpAfterTimeoutsInARow() async {
        // Each body keeps its context alive and never calls done(), as a promise that never
        // settles would: each case times out.
        let kept = PromiseMutex<[CaseContext]>([])
        let cases = (1...5).map { number in
            APlusCase(path: ["hangs \(number)"]) { context in kept.withLock { $0.append(context) } }
        }
        var outcomes: [CaseOutcome] = []
        let summary = await APlusSuite.run(cases, timeout: .milliseconds(100)) { _, outcome in outcomes.append(outcome)
        }
        #expect(APlusSuite.consecutiveTimeoutsBeforeGivingUp == 3)
        #expect(summary.run == 3 && summary.passed == 0 && summary.notRun == 2)
        #expect(outcomes.count == 3)
        #expect(outcomes.allSatisfy { if case .timedOut = $0 { true } else { false } }, "\(outcomes)")
        #expect(summary.stopReason?.hasPrefix("3 cases in a row timed out") == true, "\(summary)")
        kept.withLock { $0.removeAll() }
    }

    @Test("failure messages show values in the case's words, never the suite's own types")
    func messagesNameNoSuiteType() {
        /// A library's wrapper of a thenable the suite handed it, as a library might write one.
        struct LibraryThenable: Sendable { let wrapped: any APlusThenable }
        let handed = ScriptedThenable { resolve, _ in resolve(nil) }
        let shown = [
            show(Marker("sentinel")), show(handed), show(LibraryThenable(wrapped: handed)), show(nil), show(5),
            "\(MarkerError("reason"))", "\(ValueError(code: 0))", "\(AlwaysPendingThenableError())",
        ]
        #expect(
            shown == [
                "the value ‹sentinel›", "one of the suite's thenables",
                "a LibraryThenable wrapping one of the suite's thenables", "nil", "5", "the reason ‹reason›",
                "the reason 0", "a reason that is a thenable",
            ])
        for text in shown {
            for suiteName in ["Marker", "Thenable(", "APlusSuite.", "Optional("] {
                #expect(!text.contains(suiteName), "\(text) names \(suiteName)")
            }
        }
    }
}
