import DesignRegistry
import Foundation
import PromiseInterface
import PromiseRuntime
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

    /// Opt-in (`RELIABILITY_LEAKY_CYCLES=1`): FBL and AY do not record which promise a `then`
    /// link waits for, so they leave such a cycle pending for ever and leak it (a retain cycle),
    /// which fails FBL's process-wide `waitForPromises` test and LeakSanitizer if it runs in the
    /// same process. QX and QN reject it with their cycle error. See Reports/reliability.md.
    static let leakyCycles = ProcessInfo.processInfo.environment["RELIABILITY_LEAKY_CYCLES"] == "1"

    @Test(
        "a cycle of two, three or fifty promises adopting each other rejects them all with the cycle error",
        arguments: Design.allCases
    )
    func longerCycle(design: Design) async throws {
        // Fifty: the walk is bounded by `AdoptionCycle.maximumSteps` (100) links, and a QN promise
        // made by `deferred()` is two tasks (the promise and its resolver), two links each.
        for length in [2, 3, AdoptionCycle.maximumSteps / 2] {
            try await Self.longerCycle(design.promiseType, length: length)
        }
    }

    @Test(
        "a nest of adoptions built from the innermost promise outwards settles (the cycle check is bounded)",
        arguments: Design.allCases
    )
    func deepNestInnermostFirst(design: Design) async throws {
        try await Self.deepNestInnermostFirst(design.promiseType)
    }

    @Test(
        "a then callback returning a promise that waits on its own link leaves it pending or rejects it",
        .enabled(if: leakyCycles, "leaks the cycle in FBL and AY: opt in with RELIABILITY_LEAKY_CYCLES=1"),
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

    /// A+ 2.3.3.3 encourages detecting a cycle longer than one (note 3.6). Every design follows
    /// the chain of promises a promise adopted (`AdoptionCycle`): the adoption that would close
    /// the cycle rejects with the cycle error instead, and the others, which adopted it, reject
    /// with it too. Nothing stays pending, so nothing leaks.
    static func longerCycle<P: APlusPromise>(_: P.Type, length: Int) async throws {
        let weak = Recorder<Weak<P>>()
        do {
            let deferreds = (0..<length).map { _ in P.deferred() }
            for deferred in deferreds { weak.record(Weak(deferred.promise)) }
            for index in 0..<length { deferreds[index].resolve(deferreds[(index + 1) % length].promise) }
            for (index, deferred) in deferreds.enumerated() {
                let outcome = try await deferred.promise.settledOutcome()
                guard case .rejected(let error) = deferred.promise.currentState else {
                    Issue.record("length \(length), promise \(index): expected the cycle error, got \(outcome)")
                    continue
                }
                #expect(P.isCycleError(error), "length \(length), promise \(index): rejected with \(error)")
            }
        }
        try await eventually("every promise of the cycle to be freed") { weak.all.allSatisfy { $0.object == nil } }
    }

    /// The worst case for the bounded walk: each adoption's chain is already as long as it gets.
    static func deepNestInnermostFirst<P: APlusPromise>(_: P.Type) async throws {
        let depth = stressSize(10_000)
        let outer = try await offPool("building the adoptions innermost first") {
            nestedAdoptions(P.self, depth: depth, innermostFirst: true, value: 7)
        }
        #expect(try await outer.settledOutcome(timeout: longTimeout(.seconds(60))) == .fulfilled(7))
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
