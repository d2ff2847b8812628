import DesignRegistry
import Foundation
import PromiseInterface
import TestSupport
import Testing

/// Bad input on the shared protocol, for every registered design, beyond what the Promises/A+
/// suite and the per-design tests already cover (see Reports/reliability.md for where each case
/// is tested).
@Suite("Reliability: bad input, every design", .serialized)
struct BadInputTests {
    @Test("resolving a promise with itself rejects it with the cycle error", arguments: Design.allCases)
    func selfCycle(design: Design) async throws {
        try await Self.selfCycle(design.promiseType)
    }

    /// Opt-in (`RELIABILITY_LEAKY_CYCLES=1`): every design leaves such a cycle pending for ever and
    /// leaks it (a retain cycle), which fails FBL's process-wide `waitForPromises` test and
    /// LeakSanitizer if it runs in the same process. See Reports/reliability.md.
    static let leakyCycles = ProcessInfo.processInfo.environment["RELIABILITY_LEAKY_CYCLES"] == "1"

    @Test(
        "a cycle of two or three promises adopting each other neither fulfils, crashes nor blocks others",
        .enabled(if: leakyCycles, "leaks the cycle in every design: opt in with RELIABILITY_LEAKY_CYCLES=1"),
        arguments: Design.allCases
    )
    func longerCycle(design: Design) async throws {
        try await Self.longerCycle(design.promiseType, length: 2)
        try await Self.longerCycle(design.promiseType, length: 3)
    }

    @Test(
        "a then callback returning a promise that waits on its own link leaves it pending without a crash",
        .enabled(if: leakyCycles, "leaks the cycle in every design: opt in with RELIABILITY_LEAKY_CYCLES=1"),
        arguments: Design.allCases
    )
    func cycleThroughThen(design: Design) async throws {
        try await Self.cycleThroughThen(design.promiseType)
    }

    static func selfCycle<P: APlusPromise>(_: P.Type) async throws {
        let deferred = P.deferred()
        deferred.resolve(deferred.promise)
        let outcome = try await deferred.promise.settledOutcome()
        guard case .other = outcome, case .rejected(let error) = deferred.promise.currentState else {
            Issue.record("expected the cycle error, got \(outcome)")
            return
        }
        #expect(P.isCycleError(error))
    }

    /// A+ 2.3.3.3 allows, but does not require, detecting a cycle longer than one: every design
    /// must then either leave the promises pending or reject them with its cycle error; never
    /// fulfil, overflow the stack or stall the queue.
    static func longerCycle<P: APlusPromise>(_: P.Type, length: Int) async throws {
        let deferreds = (0..<length).map { _ in P.deferred() }
        for index in 0..<length { deferreds[index].resolve(deferreds[(index + 1) % length].promise) }
        // Other work still runs: a fresh promise settles while the cycle sits there.
        #expect(try await P.resolved(1).settledOutcome() == .fulfilled(1))
        try await drainMainQueue()
        try await drainMainQueue()
        // Printed for the report: which designs detect the cycle.
        let states = deferreds.map { Outcome($0.promise.currentState)?.description ?? "pending" }
        print("\(P.self): a cycle of \(length) promises: \(states)")
        for deferred in deferreds {
            switch deferred.promise.currentState {
            case .pending: break
            case .rejected(let error): #expect(P.isCycleError(error), "length \(length): rejected with \(error)")
            case .fulfilled(let value): Issue.record("length \(length): fulfilled with \(String(describing: value))")
            }
        }
    }

    static func cycleThroughThen<P: APlusPromise>(_: P.Type) async throws {
        let head = P.deferred()
        let later = PromiseBox<P>()
        let link = head.promise.then(
            onFulfilled: { _ in later.promise },
            onRejected: nil
        )
        later.promise = link.then(onFulfilled: { $0 }, onRejected: nil)
        head.resolve(0)
        #expect(try await P.resolved(1).settledOutcome() == .fulfilled(1))
        try await drainMainQueue()
        try await drainMainQueue()
        print(
            "\(P.self): a link waiting on itself through then: \(Outcome(link.currentState)?.description ?? "pending")")
        switch link.currentState {
        case .pending: break
        case .rejected(let error): #expect(P.isCycleError(error), "rejected with \(error)")
        case .fulfilled(let value): Issue.record("fulfilled with \(String(describing: value))")
        }
    }
}

/// A promise set after the closure that reads it was made. `lock` guards `stored`.
final class PromiseBox<P: APlusPromise>: Sendable {
    private let stored = PromiseMutex<P?>(nil)
    var promise: P? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
