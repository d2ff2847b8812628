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
        #expect(failures.first?.hasPrefix("released before it finished") == true)
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

    @Test("after three cases in a row time out, the runner reports the rest as not run instead of waiting for each")
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
        #expect(summary.run == 5 && summary.passed == 0)
        #expect(outcomes.prefix(3).allSatisfy { if case .timedOut = $0 { true } else { false } }, "\(outcomes)")
        #expect(
            outcomes.suffix(2).allSatisfy {
                $0.failureDescription?.hasPrefix("not run: 3 cases in a row timed out") == true
            },
            "\(outcomes)")
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
