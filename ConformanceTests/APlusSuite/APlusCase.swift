import Dispatch
import PromiseRuntime
import Synchronization

/// One case of the Promises/A+ suite, built for one library's adapter.
///
/// Cases are data, so any runner can use them: the Swift Testing and XCTest runners run them as
/// tests, and a tool of your own can run them with ``APlusSuite/run(_:timeout:deadline:report:)``.
public struct APlusCase: Sendable {
    /// The describe/specify path of the case in promises-aplus-tests, e.g.
    /// `["2.2.2: If `onFulfilled` is a function,", "2.2.2.1: …", "already-fulfilled"]`.
    public let path: [String]
    let body: @Sendable (CaseContext) -> Void
    /// The adapter the case was built for, whose callbacks ``MainQueueCheck`` counts; `nil` for
    /// the runner's own tests, which build cases without one.
    let adapter: ObjectIdentifier?

    init(path: [String], adapter: ObjectIdentifier? = nil, body: @escaping @Sendable (CaseContext) -> Void) {
        self.path = path
        self.adapter = adapter
        self.body = body
    }

    /// How long a case may take unless the runner says otherwise: far above the suite's longest
    /// deliberate wait (150 ms), because a case waits for the main queue, which a test run shares
    /// with every other test (the first cases of a loaded 2-core run took up to 16 s).
    public static let defaultTimeout: Duration = .seconds(30)

    /// The full case name: the path joined with ` > `.
    public var name: String { path.joined(separator: " > ") }

    /// The clause number the case belongs to, e.g. `2.3.3`.
    public var clause: String {
        let head = path.first ?? ""
        let number = head.prefix { $0 != ":" }
        // "2.1.2.1" is reported under its file's clause, 2.1.2, as the JS suite does.
        return number.split(separator: ".").prefix(3).joined(separator: ".")
    }

    /// Runs the case: its body starts on the main queue, and it ends when the body says it is
    /// done, or fails when `timeout` passes first.
    ///
    /// The main queue must be serviced while this waits (Swift Testing and a running app do it).
    ///
    /// - Parameter timeout: How long the case may take; the longest deliberate wait in the suite
    ///   is 150 ms.
    /// - Returns: The outcome, with every failure the body recorded.
    public func run(timeout: Duration = APlusCase.defaultTimeout) async -> CaseOutcome {
        await run(timeout: timeout, watch: { _ in })
    }

    /// Runs the case, handing `watch` the count of the library's calls into the case after it
    /// ended, before the body starts, so that a runner can stop a library that keeps calling.
    func run(timeout: Duration, watch: (LateCallCount) -> Void) async -> CaseOutcome {
        let offMainBefore = adapter.map(MainQueueCheck.count(for:)) ?? 0
        let outcome = await withCheckedContinuation { continuation in
            let context = CaseContext(continuation)
            watch(context.lateCalls)
            DispatchQueue.main.async { body(context) }
            // The timer is not on the main queue, so a case that blocks the main queue still ends.
            // It holds the context weakly: a strong reference kept each case's context, and all
            // the promises its locals hold, alive until the timer fired (90 s under a sanitizer),
            // past the end of the test run, where LeakSanitizer reported them. A context freed
            // before it finished ends the case itself (see `deinit`).
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) { [weak context] in
                context?.finish(timedOut: true)
            }
        }
        guard let adapter else { return outcome }
        return MainQueueCheck.outcome(outcome, offMain: MainQueueCheck.count(for: adapter) - offMainBefore)
    }
}

/// How a case ended.
public enum CaseOutcome: Sendable, Equatable {
    case passed
    case failed([String])
    case timedOut([String])

    /// Whether the case passed.
    public var passed: Bool { self == .passed }

    /// Why a case times out, in the library's terms.
    static let timedOutMessage =
        "timed out: expected the case to end within its timeout, and nothing ended it, though the library still holds "
        + "a callback that could; usually "
        + "the promise never settled (it waits for itself, or for a thenable that never calls back) or its callbacks "
        + "never ran (the main queue not serviced, a deadlock)"

    /// What went wrong, in one line, or `nil` for a case that passed.
    public var failureDescription: String? {
        switch self {
        case .passed: return nil
        case .failed(let failures): return failures.joined(separator: "; ")
        case .timedOut(let failures): return ([Self.timedOutMessage] + failures).joined(separator: "; ")
        }
    }
}

/// What a case body uses to record failures, schedule timers and finish.
///
/// Every method may be called from any thread.
final class CaseContext: Sendable {
    private struct State {
        var failures: [String] = []
        /// Failures beyond ``CaseContext/keptFailures``, counted rather than kept, so that a
        /// library that calls back without end cannot grow a case without bound.
        var failuresNotKept = 0
        var doneCalls = 0
        var continuation: CheckedContinuation<CaseOutcome, Never>?

        mutating func record(_ message: String, lateCalls: LateCallCount) {
            if continuation == nil { lateCalls.add() }
            if failures.count < CaseContext.keptFailures {
                failures.append(message)
            } else {
                failuresNotKept += 1
            }
        }

        /// The failures, with a last line that counts those not kept.
        var reported: [String] {
            failuresNotKept == 0 ? failures : failures + ["and \(failuresNotKept) more failures"]
        }
    }

    /// Whether the case has ended (passed, failed or timed out).
    var hasFinished: Bool { state.withLock { $0.continuation == nil } }

    /// How many failure messages a case keeps.
    static let keptFailures = 20

    /// Guards the recorded failures and whether the case has finished.
    private let state: PromiseMutex<State>
    /// The calls into the case after it finished, kept apart so that a runner can read them after
    /// the context is gone.
    let lateCalls = LateCallCount()
    /// Guards values that one run of a case shares between its parts (the JS suite's
    /// `beforeEach` variables), so runs of the same case never share state.
    private let locals = PromiseMutex<[String: any Sendable]>([:])

    init(_ continuation: CheckedContinuation<CaseOutcome, Never>) {
        state = PromiseMutex(State(continuation: continuation))
    }

    deinit {
        // Every closure that could call `done()` has been released (the library dropped the
        // callbacks that held them), so nothing ever will: fail now instead of waiting for a
        // timer that no longer holds the context.
        let (continuation, failures) = state.withLock { state in
            defer { state.continuation = nil }
            return (state.continuation, state.reported)
        }
        continuation?.resume(returning: .failed(failures + [Self.neverSettledMessage]))
    }

    /// Why a case whose context was freed before it finished failed.
    static let neverSettledMessage =
        "expected the promise to settle, and it never did, and nothing keeps it alive: the library let go of every callback "
        + "that could still have run (a promise that drops its callbacks, or never stores them)"

    /// The value stored under `key` for this run of the case, made by `make` on first use.
    func local<Value: Sendable>(_ key: String, _ make: () -> Value) -> Value {
        if let value = locals.withLock({ $0[key] as? Value }) { return value }
        let made = make()  // outside the lock: `make` may itself use the context
        return locals.withLock { locals in
            if let value = locals[key] as? Value { return value }  // another thread was first
            locals[key] = made
            return made
        }
    }

    /// Records a failure; the case fails when it finishes.
    func fail(_ message: String) {
        state.withLock { $0.record(message, lateCalls: lateCalls) }
    }

    /// Records a failure unless `condition` holds.
    func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition {
            fail(message())
        } else {
            state.withLock { state in if state.continuation == nil { lateCalls.add() } }
        }
    }

    /// Ends the case: it passes unless a failure was recorded.
    ///
    /// Like mocha, which fails a test whose `done` is called twice even after it passed, the case
    /// ends only a few main-queue hops later, so a second `done()` or a failure recorded by a late
    /// callback still fails it.
    func done() {
        let calls = state.withLock { state -> Int in
            state.doneCalls += 1
            return state.doneCalls
        }
        if calls == 1 {
            Self.hop(8) { self.finish(timedOut: false) }
        } else {
            fail("done() was called \(calls) times, expected once")
        }
    }

    func finish(timedOut: Bool) {
        let (continuation, failures) = state.withLock { state in
            defer { state.continuation = nil }
            return (state.continuation, state.reported)
        }
        guard let continuation else { return }
        if timedOut {
            continuation.resume(returning: .timedOut(failures))
        } else {
            continuation.resume(returning: failures.isEmpty ? .passed : .failed(failures))
        }
    }

    /// Runs `block` on the main queue after `milliseconds` (JavaScript's `setTimeout`).
    /// Zero means "after what is already queued" (`DispatchQueue.main.async`, FIFO).
    func after(_ milliseconds: Int, _ block: @escaping @Sendable () -> Void) {
        if milliseconds == 0 {
            DispatchQueue.main.async(execute: block)
        } else {
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(milliseconds), execute: block)
        }
    }

    /// Runs `block` on the main queue after `milliseconds`, then after a few more main-queue hops.
    ///
    /// Use it for checks at the end of a window that also expect something to *have* happened:
    /// under load a timer can fire while a callback it should follow is still queued, and the
    /// extra hops let such callbacks run first, so a slow machine cannot fail a correct promise.
    func afterWindow(_ milliseconds: Int, _ block: @escaping @Sendable () -> Void) {
        after(milliseconds) { Self.hop(8, then: block) }
    }

    /// Runs `block` on the main queue after `milliseconds`, as soon as `condition` holds (checked
    /// once per main-queue hop, for up to 1,000 hops; then `block` runs anyway and its own checks
    /// report what is missing).
    ///
    /// Use it where the end of a window needs something to have happened first, so that a stalled
    /// main queue delays the check instead of failing a correct promise.
    func afterWindow(
        _ milliseconds: Int,
        until condition: @escaping @Sendable () -> Bool,
        _ block: @escaping @Sendable () -> Void
    ) {
        after(milliseconds) { Self.poll(1_000, until: condition, then: block) }
    }

    private static func poll(
        _ remaining: Int,
        until condition: @escaping @Sendable () -> Bool,
        then block: @escaping @Sendable () -> Void
    ) {
        guard remaining > 0, !condition() else { return hop(8, then: block) }
        DispatchQueue.main.async { poll(remaining - 1, until: condition, then: block) }
    }

    private static func hop(_ remaining: Int, then block: @escaping @Sendable () -> Void) {
        guard remaining > 0 else { return block() }
        DispatchQueue.main.async { hop(remaining - 1, then: block) }
    }
}

/// How often the library's callbacks called into a case (`fail`, `check`, `done`) after it ended.
final class LateCallCount: Sendable {
    private let count = Atomic<Int>(0)

    func add() { count.add(1, ordering: .relaxed) }

    var value: Int { count.load(ordering: .relaxed) }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
