import APlusSuite
import AYPromises
import DesignRegistry
import Dispatch
import FBLPromises
import QNTasks
import QXPromises
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Promises/A+ 2.2.6: the callbacks of one promise run "in the order of their originating calls
/// to `then`", and nothing exempts a settle that races the registrations.
///
/// Each round, one thread registers callbacks one after another while another thread settles the
/// promise in the middle of them (released by the registering thread after a few registrations,
/// so the settle overlaps the rest). Every round's callbacks must run in registration order. A
/// design that hands its stored observers out after releasing its lock, and lets a registration
/// that lands meanwhile run at once, fails this: that late callback overtakes the stored ones.
@Suite("Reliability: callback order under a concurrent settle", .serialized)
struct CallbackOrderTests {
    static let rounds = stressSize(2_000)
    static let registrations = 16
    /// How many registrations come before the settling thread is released.
    static let releasedAfter = 4

    @Test(
        "callbacks registered from one thread run in order while another settles, through the A+ adapter",
        arguments: Design.allCases)
    func throughSharedProtocol(design: Design) async throws {
        try await Self.sharedProtocolRace(design.adapter)
    }

    static func sharedProtocolRace<A: APlusAdapter>(_: A.Type) async throws {
        try await Self.race(
            prepare: { A.deferred() },
            register: { deferred, index, record in
                _ = A.then(
                    deferred.promise,
                    onFulfilled: { value in
                        record(index)
                        return value
                    },
                    onRejected: nil
                )
            },
            settle: { deferred in deferred.resolve(42) }
        )
    }

    @Test("FBL: observe(on:) and then(on:) callbacks keep their order while another thread fulfils")
    func fblNative() async throws {
        let queue = DispatchQueue(label: "order.fbl")
        try await Self.race(
            prepare: { FBLPromise<Int>.pending() },
            register: { promise, index, record in
                if index.isMultiple(of: 2) {
                    promise.observe(on: queue, fulfill: { _ in record(index) }, reject: { _ in record(-1) })
                } else {
                    promise.then(on: queue) { _ in record(index) }
                }
            },
            settle: { promise in promise.fulfill(1) }
        )
    }

    @Test("AY: thenOn(queue) blocks keep their order while another thread resolves")
    func ayNative() async throws {
        let queue = DispatchQueue(label: "order.ay")
        try await Self.race(
            prepare: { () -> AYPendingPromise in AYPendingPromise() },
            register: { pending, index, record in
                pending.promise.thenOn(queue) { _ in record(index) }
            },
            settle: { pending in pending.resolve(1) }
        )
    }

    @Test("QX: then(on:) links of a pending(on:) promise keep their order while another thread fulfils")
    func qxNative() async throws {
        let queue = DispatchQueue(label: "order.qx")
        try await Self.race(
            prepare: { QXPromise.pending(on: queue) },
            register: { pending, index, record in
                pending.promise.then(on: queue) { value in
                    record(index)
                    return value
                }
            },
            settle: { pending in pending.resolver.fulfill(1) }
        )
    }

    @Test("QN: observe(on:) and start(on:) callbacks keep their order while another thread completes the task")
    func qnNative() async throws {
        let queue = DispatchQueue(label: "order.qn")
        try await Self.race(
            prepare: { () -> QNAsyncManualTask<Int> in
                let task = QNAsyncManualTask<Int>()
                task.start()
                return task
            },
            register: { task, index, record in
                if index.isMultiple(of: 2) {
                    task.observe(on: queue) { _ in record(index) }
                } else {
                    task.start(on: queue) { _ in record(index) }
                }
            },
            settle: { task in task.succeed(1) }
        )
    }

    /// One round: the subject, whether the settling thread may go, and the order callbacks ran in.
    struct Round<Subject: Sendable>: Sendable {
        let subject: Subject
        let released = ReleaseFlag()
        let order = Recorder<Int>()
    }

    /// Runs ``rounds`` rounds of ``registrations`` registrations from one thread racing a settle
    /// from another, then checks that every round's callbacks ran in registration order.
    ///
    /// - Parameters:
    ///   - prepare: Makes a pending subject for one round.
    ///   - register: Registers callback number `index` on the subject; the callback must call
    ///     `record(index)` (or `record(-1)` if it sees a rejection) when it runs.
    ///   - settle: Settles the subject (fulfils it).
    static func race<Subject: Sendable>(
        prepare: @escaping @Sendable () -> Subject,
        register: @escaping @Sendable (Subject, Int, @escaping @Sendable (Int) -> Void) -> Void,
        settle: @escaping @Sendable (Subject) -> Void
    ) async throws {
        let calls = Countdown(rounds * registrations)
        let played = try await offPool("the order race", timeout: heavyTimeout) {
            raceRounds(
                threads: 2,
                rounds: rounds,
                prepare: { _ in Round(subject: prepare()) },
                body: { round, thread in
                    if thread == 0 {
                        for index in 0..<registrations {
                            if index == releasedAfter { round.released.release() }
                            register(round.subject, index) { ran in
                                round.order.record(ran)
                                calls.tick()
                            }
                        }
                    } else {
                        round.released.waitForRelease()
                        settle(round.subject)
                    }
                }
            )
        }
        try await calls.wait("every callback of every round", timeout: heavyTimeout)
        let expected = Array(0..<registrations)
        let outOfOrder = played.enumerated().filter { $0.element.order.all != expected }
        #expect(calls.remaining == 0, "callbacks ran more than once")
        if let (number, round) = outOfOrder.first {
            Issue.record(
                "\(outOfOrder.count) of \(rounds) rounds ran their callbacks out of registration order; round \(number): \(round.order.all)"
            )
        }
    }
}

/// Lets the settling thread go once the registering thread has made its first registrations.
///
/// The settling thread spins (yielding) instead of sleeping: woken from a sleep it would settle
/// only after the registering thread had long finished, and the rounds would not overlap. The spin
/// ends after ``defaultTestTimeout`` at the latest (the round then simply does not overlap).
final class ReleaseFlag: Sendable {
    private let released = Atomic<Bool>(false)

    func release() { released.store(true, ordering: .releasing) }

    func waitForRelease() {
        let deadline = ContinuousClock.now + defaultTestTimeout
        while !released.load(ordering: .acquiring), ContinuousClock.now < deadline { sched_yield() }
    }
}

/// A pending AY promise and the function that resolves it, made with AY's own
/// `asyncWithResolve`, whose block runs on a global queue and hands the function over.
struct AYPendingPromise: Sendable {
    let promise: AYPromise
    private let handedOver = Recorder<AYResolve>()
    private let ready = DispatchSemaphore(value: 0)

    init() {
        let handedOver = handedOver
        let ready = ready
        promise = AYPromise.asyncWithResolve { resolve in
            handedOver.record(resolve)
            ready.signal()
        }
    }

    /// Resolves the promise once its block has handed the function over (the settling thread
    /// waits for that, with a timeout: if it never comes, the round's callbacks never run and the
    /// test fails on its wait for them).
    func resolve(_ value: PromiseValue) {
        guard ready.wait(timeout: .now() + defaultTestTimeout.timeInterval) == .success else { return }
        ready.signal()  // for a later call
        handedOver.all.first?(value)
    }
}
