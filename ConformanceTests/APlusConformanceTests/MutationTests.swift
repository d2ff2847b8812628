import APlusSuite
import DesignRegistry
import TestSupport
import Testing

/// Proves the suite can fail: a promise broken in one known way must fail the cases that target
/// that defect, while the same promise without the defect passes them.
@Suite("Promises/A+ suite catches broken promises", .serialized)
struct MutationTests {
    /// Runs the cases whose name starts with one of `prefixes`; returns how many ran and failed.
    /// Then frees the mutants the cases left behind (``MutantPromise/breakCycles()``); the suite
    /// is serialized, so no other case of the same mutant is running.
    ///
    /// The cases run in eight lanes, each lane one case at a time, as eight suites run side by side
    /// in `swift test`: a case spends most of its time waiting for its timers (up to 150 ms), and
    /// in one lane those waits added up to minutes (in four, this suite was the last to finish). The cases share nothing but the mutant
    /// tracker, which is thread-safe, and none of these mutants calls back off the main queue
    /// (the main-queue check counts per adapter).
    static func run<Selector: DefectSelector>(
        _: MutantPromise<Selector>.Type,
        clauses prefixes: [String],
        options: APlusSuite.Options = [],
        timeout: Duration = defaultTestTimeout
    ) async -> (ran: Int, failed: [String]) {
        let all =
            APlusSuite.cases(for: MutantAdapter<Selector>.self, options: options)
            + APlusSuite.additions(for: MutantAdapter<Selector>.self)
        let selected = all.filter { aplusCase in
            prefixes.contains { aplusCase.name.hasPrefix($0) }
        }
        let lanes = 8
        let failed = await withTaskGroup(of: [(index: Int, name: String)].self) { group in
            for lane in 0..<lanes {
                group.addTask {
                    var failed: [(index: Int, name: String)] = []
                    for index in stride(from: lane, to: selected.count, by: lanes)
                    where await selected[index].run(timeout: timeout) != .passed {
                        failed.append((index, selected[index].name))
                    }
                    return failed
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        MutantPromise<Selector>.breakCycles()
        return (selected.count, failed.sorted { $0.index < $1.index }.map(\.name))
    }

    static let cleanStack = "2.2.4"
    static let thenables =
        "2.3.3: Otherwise, if `x` is an object or function, > 2.3.3.3: If `then` is a function, call it with `x` as `this`, first argument `resolvePromise`, and second argument `rejectPromise` > 2.3.3.3.1"
    static let firstCallWins =
        "2.3.3: Otherwise, if `x` is an object or function, > 2.3.3.3: If `then` is a function, call it with `x` as `this`, first argument `resolvePromise`, and second argument `rejectPromise` > 2.3.3.3.3"
    static let stateGuards = ["2.1.2", "2.1.3", "2.2.2", "2.2.3"]
    static let cycle = "2.3.1"
    static let assimilation = "2.3.3"

    @Test("the correct reference promise passes every targeted clause")
    func controlPasses() async {
        let result = await Self.run(
            MutantPromise<Correct>.self,
            clauses: [Self.cleanStack, Self.thenables, Self.firstCallWins, Self.cycle] + Self.stateGuards
        )
        #expect(result.ran == 522)
        #expect(result.failed.isEmpty, "\(result.failed.prefix(3))")
    }

    static let additions = "Additions:"

    @Test("the correct reference promise passes all 690 cases and the 18 this port adds")
    func controlPassesEverything() async {
        let result = await Self.run(
            MutantPromise<Correct>.self, clauses: ["2.", Self.additions], options: .thenProperties)
        #expect(result.ran == 708)
        #expect(result.failed.isEmpty, "\(result.failed.prefix(3))")
    }

    @Test("then(f, r) written as then(f) and a recovery with r fails 3 of the 648 JS cases and 9 of the 18 additions")
    func recoversOwnThrow() async {
        let javaScript = await Self.run(MutantPromise<RecoversOwnThrow>.self, clauses: ["2."])
        #expect(javaScript.ran == 648)
        // Only 2.2.6.1's "multiple fulfillment handlers, one of which throws", in its three timings.
        #expect(javaScript.failed.count == 3, "\(javaScript.failed.count) of 648 failed: \(javaScript.failed)")
        #expect(
            javaScript.failed.allSatisfy { $0.contains("2.2.6.1:") && $0.contains("one of which throws") },
            "\(javaScript.failed)")
        let added = await Self.run(MutantPromise<RecoversOwnThrow>.self, clauses: [Self.additions])
        #expect(added.ran == 18)
        // Every timing of every reason in the first addition, and nothing else.
        #expect(added.failed.count == 9, "\(added.failed.count) of 18 failed")
        #expect(added.failed.allSatisfy { $0.contains("when `onFulfilled` throws") }, "\(added.failed)")
    }

    /// The mirror mistake is no blind spot: the suite observes promises with `then(f, r)` itself,
    /// so every such observation of a rejected promise reaches `f` as well.
    @Test("then(f, r) written as a recovery with r and then(f) fails most of the 648 and 15 of the 18 additions")
    func fulfilsWhatItRecovered() async {
        let javaScript = await Self.run(MutantPromise<FulfilsWhatItRecovered>.self, clauses: ["2."])
        #expect(javaScript.ran == 648)
        #expect(javaScript.failed.count > 200, "\(javaScript.failed.count) of 648 failed (274 when measured)")
        let added = await Self.run(MutantPromise<FulfilsWhatItRecovered>.self, clauses: [Self.additions])
        #expect(added.ran == 18)
        // The 12 of the first two groups, and the 3 late-`then` cases on a rejected promise whose
        // late `then` has both callbacks; the 3 on a fulfilled promise never reach `f` this way.
        #expect(added.failed.count == 15, "\(added.failed.count) of 18 failed")
    }

    /// The suite's thenable reasons reach the library through the adapter's `thenable(_:)`, as
    /// objects the library would assimilate if they were values: a library that does something
    /// with such a reason fails every case that rejects with one, and no other.
    @Test("replacing a reason that is a thenable fails every case whose reason is a thenable")
    func replacesThenableReasons() async {
        let result = await Self.run(MutantPromise<ReplacesThenableReasons>.self, clauses: ["2.", Self.additions])
        #expect(result.ran == 666)
        #expect(result.failed.count == 13, "\(result.failed.count) of 666 failed: \(result.failed)")
        #expect(result.failed.allSatisfy { $0.contains("thenable") }, "\(result.failed)")
    }

    /// The cases cannot tell every late write from a wrong one when callbacks run on another
    /// thread, so the suite names the cause (see `MainQueueCheck`).
    @Test("callbacks off the main queue fail every case in which one runs, saying so")
    func callsBackOffMain() async {
        let cases = APlusSuite.cases(for: MutantAdapter<CallsBackOffMain>.self)
            .filter { $0.clause == "2.2.2" }
        var outcomes: [CaseOutcome] = []
        for aplusCase in cases { outcomes.append(await aplusCase.run(timeout: defaultTestTimeout)) }
        MutantPromise<CallsBackOffMain>.breakCycles()
        #expect(cases.count == 11)
        // Every case but the one whose callback is never called ("never fulfilled").
        let failures = outcomes.compactMap(\.failureDescription)
        #expect(failures.count == 10, "\(outcomes)")
        #expect(failures.allSatisfy { $0.contains("callbacks ran off the main queue") }, "\(failures)")
    }

    /// An adapter that hands a thenable reason over as something that is not an error object
    /// would make the reason cases test nothing: each of them fails, naming the mistake.
    @Test("an adapter that hands a thenable reason over as a non-error fails the 13 cases with such reasons")
    func thenableReasonNotAnError() async {
        let cases =
            APlusSuite.cases(for: NonErrorThenableReasons.self)
            + APlusSuite.additions(for: NonErrorThenableReasons.self)
        let failures = await Self.failures(of: cases)
        MutantPromise<Correct>.breakCycles()
        #expect(failures.count == 13)
        #expect(failures.allSatisfy { $0.contains("for a thenable that is an Error") }, "\(failures)")
    }

    @Test("synchronous callbacks fail 2.2.4")
    func synchronousCallbacks() async {
        let result = await Self.run(MutantPromise<Synchronous>.self, clauses: [Self.cleanStack])
        #expect(result.ran == 16)
        #expect(result.failed.count == 12, "\(result.failed.count) of 16 failed")
    }

    static let callsThen =
        "2.3.3: Otherwise, if `x` is an object or function, > 2.3.3.3: If `then` is a function, call it with `x` as `this`, first argument `resolvePromise`, and second argument `rejectPromise` > Calls with `x` as `this` and two function arguments"

    @Test("ignoring thenables fails both cases of 2.3.3.3's \"Calls with `x` as `this`\" (the JS case alone passed it)")
    func ignoresThenablesCallsThen() async {
        let result = await Self.run(MutantPromise<IgnoresThenables>.self, clauses: [Self.callsThen])
        #expect(result.ran == 2)
        #expect(result.failed.count == 2, "\(result.failed.count) of 2 failed")
    }

    @Test("ignoring thenables fails 2.3.3.3.1")
    func ignoresThenables() async {
        let result = await Self.run(MutantPromise<IgnoresThenables>.self, clauses: [Self.thenables])
        #expect(result.ran == 436)
        #expect(result.failed.count == 436, "\(result.failed.count) of 436 failed")
    }

    @Test("a promise without a state guard fails 2.1.2 and 2.1.3")
    func settlesTwice() async {
        let result = await Self.run(MutantPromise<SettlesTwice>.self, clauses: Self.stateGuards)
        #expect(result.ran == 34)
        // At least the catalog's four late double-`done` cases; how many of the "called once"
        // cases also catch it depends on when the second settle lands in their grace window.
        #expect(result.failed.count >= 4, "\(result.failed.count) of 34 failed")
        #expect(result.failed.contains { $0.hasPrefix("2.1.2") })
        #expect(result.failed.contains { $0.hasPrefix("2.1.3") })
    }

    @Test("adopting itself fails 2.3.1")
    func noCycleCheck() async {
        // Both cases hang by design (the promise waits for itself): a short timeout suffices.
        let result = await Self.run(MutantPromise<NoCycleCheck>.self, clauses: [Self.cycle], timeout: .seconds(1))
        #expect(result.ran == 2)
        #expect(result.failed.count == 2)
    }

    @Test("calling a thenable without the first-call guard fails 2.3.3.3.3")
    func noCalledGuard() async {
        let result = await Self.run(MutantPromise<NoCalledGuard>.self, clauses: [Self.firstCallWins])
        #expect(result.ran == 34)
        // Exactly scripts 4, 5, 12 and 13, both ways: the only ones where the promise is still
        // pending when the second call arrives (the catalog's probe found the same 8).
        #expect(result.failed.count == 8, "\(result.failed.count) of 34 failed")
    }

    @Test("not resolving a thenable's value again fails the thenable-for-thenable cases")
    func noRecursion() async {
        let result = await Self.run(MutantPromise<NoRecursion>.self, clauses: [Self.thenables])
        #expect(result.ran == 436)
        #expect(result.failed.count == 416, "\(result.failed.count) of 436 failed")
    }

    @Test("rejecting on a throw after a callback fails 2.3.3.3.4.1 and the throwing thenables")
    func throwAfterCallRejects() async {
        let result = await Self.run(MutantPromise<ThrowAfterCallRejects>.self, clauses: [Self.assimilation])
        #expect(result.ran == 504)
        #expect(result.failed.count == 56, "\(result.failed.count) of 504 failed")
    }

    @Test("calling a thenable's then twice fails 2.3.3.1, \"Calls with `x` as `this`\" and the one-time thenables")
    func callsThenTwice() async {
        let result = await Self.run(MutantPromise<CallsThenTwice>.self, clauses: [Self.assimilation])
        #expect(result.ran == 504)
        // 112 before "Calls with `x` as `this`" checked how often `then` was called.
        #expect(result.failed.count == 114, "\(result.failed.count) of 504 failed")
    }
}

extension MutationTests {
    @Test("reading a `then` property twice fails 2.3.3.1 and \"Uses the original value of `then`\"")
    func readsThenTwice() async {
        let result = await Self.run(
            MutantPromise<ReadsThenTwice>.self, clauses: [Self.assimilation], options: .thenProperties)
        #expect(result.ran == 546)
        #expect(result.failed.count == 4, "\(result.failed.count) of 546 failed")
        let failingGroups = Set(
            result.failed.map { $0.components(separatedBy: " > ").dropLast().joined(separator: " > ") })
        #expect(
            failingGroups == [
                "2.3.3: Otherwise, if `x` is an object or function, > 2.3.3.1: Let `then` be `x.then` > `x` is an object with normal Object.prototype",
                "2.3.3: Otherwise, if `x` is an object or function, > 2.3.3.3: If `then` is a function, call it with `x` as `this`, first argument `resolvePromise`, and second argument `rejectPromise` > Uses the original value of `then`",
            ], "\(failingGroups)")
    }

    @Test("taking a throwing `then` read for no function fails 2.3.3.2 and every throwing-property thenable")
    func swallowsThrowingThenRead() async {
        let result = await Self.run(
            MutantPromise<SwallowsThrowingThenRead>.self, clauses: [Self.assimilation], options: .thenProperties)
        #expect(result.ran == 546)
        // 2.3.3.2 (6), the throwing property as `y` (4) and as the inner thenable (7 outer × 4).
        #expect(result.failed.count == 38, "\(result.failed.count) of 546 failed")
        #expect(result.failed.allSatisfy { $0.contains("2.3.3.2:") || $0.contains("throwing `then` accessor") })
    }

    @Test("without thenProperties the same two mutants pass the 504 cases of 2.3.3")
    func propertyDefectsNeedTheOption() async {
        let reads = await Self.run(MutantPromise<ReadsThenTwice>.self, clauses: [Self.assimilation])
        let swallows = await Self.run(MutantPromise<SwallowsThrowingThenRead>.self, clauses: [Self.assimilation])
        #expect(reads.ran == 504 && reads.failed.isEmpty, "\(reads.failed.prefix(3))")
        #expect(swallows.ran == 504 && swallows.failed.isEmpty, "\(swallows.failed.prefix(3))")
    }
}

/// The correct mutant's adapter, except that a thenable reason is handed over as a string.
enum NonErrorThenableReasons: APlusAdapter {
    typealias Base = MutantAdapter<Correct>

    static func deferred() -> APlusDeferred<MutantPromise<Correct>> { Base.deferred() }

    static func then(
        _ promise: MutantPromise<Correct>,
        onFulfilled: (@Sendable (APlusValue) throws -> APlusValue)?,
        onRejected: (@Sendable (any Error) throws -> APlusValue)?
    ) -> MutantPromise<Correct> {
        Base.then(promise, onFulfilled: onFulfilled, onRejected: onRejected)
    }

    static func thenable(_ foreign: any APlusThenable) -> APlusValue {
        foreign is any Error ? "a thenable reason" : Base.thenable(foreign)
    }

    static func isCycleError(_ error: any Error) -> Bool { Base.isCycleError(error) }
}

/// The checks this port adds beyond promises-aplus-tests: several threads, late `then`s, and a run
/// that always ends.
extension MutationTests {
    static let racingSettles =
        "Threads: cases this port adds for settles and `then`s from several threads at once > Settles racing"
    static let lateThen = "Additions: cases this port adds to promises-aplus-tests > A late `then`"

    /// Runs the cases of `clause` (a name, as ``APlusSuite/cases(for:clauses:options:)`` takes
    /// it) whose names start with `prefix` and contain `part`, one after the other, and returns
    /// how many ran and the failures.
    static func run<Selector: DefectSelector>(
        _: MutantPromise<Selector>.Type, clause: String, prefix: String = "", containing part: String = ""
    ) async throws -> (ran: Int, failures: [String]) {
        let cases = try APlusSuite.cases(for: MutantAdapter<Selector>.self, clauses: [clause])
            .filter { $0.name.hasPrefix(prefix) && (part.isEmpty || $0.name.contains(part)) }
        let failures = await Self.failures(of: cases)
        MutantPromise<Selector>.breakCycles()
        return (cases.count, failures)
    }

    /// Runs `cases` one after the other and returns each failure as `"<full name>: <what went wrong>"`.
    static func failures(of cases: [APlusCase]) async -> [String] {
        var failures: [String] = []
        for aplusCase in cases {
            if let failure = await aplusCase.run(timeout: defaultTestTimeout).failureDescription {
                failures.append("\(aplusCase.name): \(failure)")
            }
        }
        return failures
    }

    @Test("the correct reference promise passes the 6 cases for several threads and the 6 late-`then` additions")
    func controlPassesThreadsAndLateThen() async throws {
        let threads = try await Self.run(MutantPromise<Correct>.self, clause: APlusSuite.threadsClause)
        #expect(threads.ran == 6 && threads.failures.isEmpty, "\(threads.failures)")
        let late = try await Self.run(
            MutantPromise<Correct>.self, clause: APlusSuite.additionsClause, prefix: Self.lateThen)
        #expect(late.ran == 6 && late.failures.isEmpty, "\(late.failures)")
    }

    @Test("both check-then-act settles pass every single-threaded case of 2.1: only the settle races can find them")
    func checkThenActSettlesPassSingleThreaded() async throws {
        let loadThenStore = await Self.run(
            MutantPromise<LoadThenStoreSettle>.self, clauses: ["2.1."], timeout: .seconds(60))
        #expect(loadThenStore.ran == 12 && loadThenStore.failed.isEmpty, "\(loadThenStore.failed)")
        let twoLocks = await Self.run(
            MutantPromise<CheckThenSettleUnderTwoLocks>.self, clauses: ["2.1."], timeout: .seconds(60))
        #expect(twoLocks.ran == 12 && twoLocks.failed.isEmpty, "\(twoLocks.failed)")
    }

    /// Runs the 4 settle races against `mutant` `runs` times and returns in how many runs one of
    /// them failed with a settle that won twice, and every failure. The races are left to chance:
    /// these mutants hold no window open, so this counts how often the suite finds it.
    static func runsCatching<Selector: DefectSelector>(
        _ mutant: MutantPromise<Selector>.Type, runs: Int
    ) async throws -> (caught: Int, failures: [String]) {
        var caught = 0
        var failures: [String] = []
        for _ in 0..<runs {
            let races = try await Self.run(mutant, clause: APlusSuite.threadsClause, prefix: Self.racingSettles)
            #expect(races.ran == 4)
            failures += races.failures
            if races.failures.contains(where: SettleWonTwice.shows(in:)) {
                caught += 1
            }
        }
        return (caught, failures)
    }

    @Test("callbacks handed out in reverse fail 2.2.6, each message saying what was expected and what was observed")
    func reversedCallbacks() async throws {
        let messages = try await Self.run(MutantPromise<ReversesCallbacks>.self, clause: "2.2.6").failures
        #expect(!messages.isEmpty)
        for message in messages {
            #expect(message.contains("expected") && message.contains("observed"), "\(message)")
            #expect(!message.contains("was called with []"), "\(message)")
        }
    }

    @Test(
        "a settle written as an atomic load and then a store, with no window held open, fails a settle race in 10 of 10 runs"
    )
    func loadThenStoreSettleIsCaught() async throws {
        let runs = try await Self.runsCatching(MutantPromise<LoadThenStoreSettle>.self, runs: 10)
        #expect(runs.caught == 10, "caught in \(runs.caught) of 10 runs: \(runs.failures)")
    }

    @Test("a check under the lock and then a settle under a second acquisition fails a settle race in 10 of 10 runs")
    func checkThenSettleUnderTwoLocksIsCaught() async throws {
        let runs = try await Self.runsCatching(MutantPromise<CheckThenSettleUnderTwoLocks>.self, runs: 10)
        #expect(runs.caught == 10, "caught in \(runs.caught) of 10 runs: \(runs.failures)")
    }

    @Test(
        "a second settle that overwrites the outcome silently passes 2.1.2 to 2.2.3 and fails the 4 late-`then` cases after a second attempt"
    )
    func overwritesSilently() async throws {
        let javaScript = await Self.run(MutantPromise<OverwritesSilently>.self, clauses: Self.stateGuards)
        #expect(javaScript.ran == 34 && javaScript.failed.isEmpty, "\(javaScript.failed)")
        let late = try await Self.run(
            MutantPromise<OverwritesSilently>.self, clause: APlusSuite.additionsClause, prefix: Self.lateThen)
        #expect(late.ran == 6)
        #expect(late.failures.count == 4, "\(late.failures)")
        #expect(late.failures.allSatisfy { $0.contains("after an attempt to") }, "\(late.failures)")
    }

    static let thenFromThreads =
        "Threads: cases this port adds for settles and `then`s from several threads at once > `then` from several threads"

    @Test("handing out the callbacks after a settle from another thread returned fails both `then`-from-threads cases")
    func handsOutLate() async throws {
        let result = try await Self.run(
            MutantPromise<HandsOutLate>.self, clause: APlusSuite.threadsClause, prefix: Self.thenFromThreads)
        #expect(result.ran == 2)
        #expect(result.failures.count == 2, "\(result.failures)")
        #expect(
            result.failures.allSatisfy { $0.contains("which the same thread registered after it") },
            "\(result.failures)")
    }

    @Test("running the handlers again for each late `then` fails the 2 late-`then` cases after the handlers ran")
    func rerunsHandlersOnLateThen() async throws {
        let late = try await Self.run(
            MutantPromise<RerunsHandlersOnLateThen>.self, clause: APlusSuite.additionsClause,
            prefix: Self.lateThen, containing: " > registered after the handlers ran")
        #expect(late.ran == 2)
        #expect(late.failures.count == 2, "\(late.failures)")
        #expect(late.failures.allSatisfy { $0.contains("ran again") }, "\(late.failures)")
    }
}

extension MutationTests {
    /// A value type has no identity, so the observers of one outcome compare its description: a
    /// library that fulfils with the thenable (the adapter's struct around it) is told so, not
    /// that its observers saw different outcomes (what a boxed identity said before).
    @Test("fulfilling with a thenable fails the race that resolves with one, saying no settle call attempted that")
    func ignoresThenablesInThreads() async throws {
        let name = "resolve with a thenable that calls back at once, against reject"
        let cases = try APlusSuite.cases(for: IgnoresThenablesDroppingRejects.self, clauses: [APlusSuite.threadsClause])
            .filter { $0.name.hasSuffix(name) }
        #expect(cases.count == 1)
        let failures = await Self.failures(of: cases)
        MutantPromise<IgnoresThenables>.breakCycles()
        #expect(failures.count == 1, "\(failures)")
        #expect(
            failures.allSatisfy {
                $0.contains("stride 1, promise 1: the promise was fulfilled with")
                    && $0.contains("which no settle call attempted")
            }, "\(failures)")
    }
}

/// The thenable-ignoring mutant's adapter, except that the deferred's `reject` does nothing, so
/// that a race of a resolve against a reject is always won by the resolve.
enum IgnoresThenablesDroppingRejects: APlusAdapter {
    typealias Base = MutantAdapter<IgnoresThenables>

    static func deferred() -> APlusDeferred<MutantPromise<IgnoresThenables>> {
        let base = Base.deferred()
        return APlusDeferred(promise: base.promise, resolve: base.resolve, reject: { _ in })
    }

    static func then(
        _ promise: MutantPromise<IgnoresThenables>,
        onFulfilled: (@Sendable (APlusValue) throws -> APlusValue)?,
        onRejected: (@Sendable (any Error) throws -> APlusValue)?
    ) -> MutantPromise<IgnoresThenables> {
        Base.then(promise, onFulfilled: onFulfilled, onRejected: onRejected)
    }

    static func thenable(_ foreign: any APlusThenable) -> APlusValue { Base.thenable(foreign) }
}
