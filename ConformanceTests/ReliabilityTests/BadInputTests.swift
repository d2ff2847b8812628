import APlusSuite
import DesignRegistry
import Foundation
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
        try await Self.selfCycle(design.adapter)
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
            try await Self.longerCycle(design.adapter, length: length)
        }
    }

    @Test(
        "a nest of adoptions built from the innermost promise outwards settles (the cycle check is bounded)",
        arguments: Design.allCases
    )
    func deepNestInnermostFirst(design: Design) async throws {
        try await Self.deepNestInnermostFirst(design.adapter)
    }

    @Test(
        "a then callback returning a promise that waits on its own link leaves it pending or rejects it",
        .enabled(if: leakyCycles, "leaks the cycle in FBL and AY: opt in with RELIABILITY_LEAKY_CYCLES=1"),
        arguments: Design.allCases
    )
    func cycleThroughThen(design: Design) async throws {
        try await Self.cycleThroughThen(design.adapter)
    }

    static func selfCycle<A: APlusAdapter>(_: A.Type) async throws {
        let deferred = A.deferred()
        deferred.resolve(deferred.promise)
        let outcome = try await A.settledOutcome(deferred.promise)
        guard case .other = outcome, case .rejected(let error) = A.currentState(of: deferred.promise) else {
            Issue.record("expected the cycle error, got \(outcome)")
            return
        }
        #expect(A.isCycleError(error))
    }

    /// A+ 2.3.3.3 encourages detecting a cycle longer than one (note 3.6). Every design follows
    /// the chain of promises a promise adopted (`AdoptionCycle`): the adoption that would close
    /// the cycle rejects with the cycle error instead, and the others, which adopted it, reject
    /// with it too. Nothing stays pending, so nothing leaks.
    static func longerCycle<A: APlusAdapter>(_: A.Type, length: Int) async throws {
        let weak = Recorder<Weak<AnyObject>>()
        do {
            let deferreds = (0..<length).map { _ in A.deferred() }
            for deferred in deferreds { weak.record(A.weakReference(to: deferred.promise)) }
            for index in 0..<length { deferreds[index].resolve(deferreds[(index + 1) % length].promise) }
            for (index, deferred) in deferreds.enumerated() {
                let outcome = try await A.settledOutcome(deferred.promise)
                guard case .rejected(let error) = A.currentState(of: deferred.promise) else {
                    Issue.record("length \(length), promise \(index): expected the cycle error, got \(outcome)")
                    continue
                }
                #expect(A.isCycleError(error), "length \(length), promise \(index): rejected with \(error)")
            }
        }
        try await eventually("every promise of the cycle to be freed") { weak.all.allSatisfy { $0.object == nil } }
    }

    /// The worst case for the bounded walk: each adoption's chain is already as long as it gets.
    static func deepNestInnermostFirst<A: APlusAdapter>(_: A.Type) async throws {
        let depth = stressSize(10_000)
        let outer = try await offPool("building the adoptions innermost first") {
            nestedAdoptions(A.self, depth: depth, innermostFirst: true, value: 7)
        }
        #expect(try await A.settledOutcome(outer, timeout: longTimeout(.seconds(60))) == .fulfilled(7))
    }

    static func cycleThroughThen<A: APlusAdapter>(_: A.Type) async throws {
        let head = A.deferred()
        let later = PromiseBox<A.PromiseUnderTest>()
        let link = A.then(head.promise, onFulfilled: { _ in later.promise }, onRejected: nil)
        later.promise = A.then(link, onFulfilled: { $0 }, onRejected: nil)
        head.resolve(0)
        #expect(try await A.settledOutcome(A.resolved(1)) == .fulfilled(1))
        try await drainMainQueue()
        try await drainMainQueue()
        print(
            "\(A.self): a link waiting on itself through then: \(Outcome(A.currentState(of: link))?.description ?? "pending")"
        )
        switch A.currentState(of: link) {
        case .pending: break
        case .rejected(let error): #expect(A.isCycleError(error), "rejected with \(error)")
        case .fulfilled(let value): Issue.record("fulfilled with \(String(describing: value))")
        }
    }
}

/// A promise set after the closure that reads it was made. `lock` guards `stored`.
final class PromiseBox<P: Sendable>: Sendable {
    private let stored = PromiseMutex<P?>(nil)
    var promise: P? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
