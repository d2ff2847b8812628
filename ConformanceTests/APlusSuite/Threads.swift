// Cases this port adds for what a single-threaded suite cannot reach: settles that race from
// several threads, and `then` called from several threads while another settles. JavaScript has
// one thread, so promises-aplus-tests has no such case; a Swift promise is settled and observed
// from any thread, and "first settle wins" written as a check and then a store (two steps) passes
// every single-threaded case.
//
// A real check-then-act race has a window of a few nanoseconds, which threads woken from a gate
// (tens of microseconds apart) almost never hit. So the settle races run as jcstress (OpenJDK's
// concurrency stress harness) runs its tests: threads kept for the whole case meet before every
// promise by spinning on one atomic counter, so that they start within a few hundred nanoseconds
// of one another; each then waits a short pseudo-random spin, whose range grows and shrinks from
// stride to stride, so that the gap between two settle calls sweeps across the window; the roles
// (which thread fulfils, which rejects) are shuffled between the threads from stride to stride;
// and the promises come in strides that double in size while the case's time allows. A correct library
// passes whatever the interleaving; a broken one fails at the first promise whose window was hit.

import Dispatch
import Foundation
import PromiseRuntime

/// How long a round waits, in seconds, for a call to return or a callback to run: longer than the
/// main queue stalls under a loaded test run (16 s has been seen), so that the case's own
/// timeout, not a round, ends a case whose library is merely slow.
let threadRoundWaitSeconds = 60

extension SuiteBuilder {
    /// The heading of every case for several threads; ``APlusCase/clause`` reports them as
    /// `Threads`.
    static var threadsHeading: String {
        "Threads: cases this port adds for settles and `then`s from several threads at once"
    }

    /// How many rounds each case of `then` from several threads runs at most: enough to hit a
    /// registration racing a settle on 2 loaded cores, few enough that the two cases take about a
    /// second on 2 cores.
    static var threadRounds: Int { 100 }

    /// After this many rounds, a case of `then` from several threads stops once it has run for
    /// ``threadRoundsBudgetSeconds``: each round waits for the main queue, which a loaded test run
    /// can stall for seconds, and a correct library's case must end well within its timeout.
    static var minimumThreadRounds: Int { 10 }

    /// How long a case's rounds may run once ``minimumThreadRounds`` are done.
    static var threadRoundsBudgetSeconds: Int { 5 }

    /// How long a settle race keeps starting strides: the four races take 4 s of a correct
    /// library's thread section. At 500 ms, an atomic load and then a store passed all four races
    /// in 1 run of 10 under AddressSanitizer beside a release build on 2 cores.
    static var settleRaceMilliseconds: Int { 1_000 }

    /// The largest stride of a settle race, in promises: strides double from 1 up to it.
    static var largestSettleRaceStride: Int { 512 }

    func threads() {
        describe(Self.threadsHeading) {
            describe(
                "Settles racing from several threads: every observer, registered before or after, is called once, and all see the same outcome, one of those attempted"
            ) {
                for race in SettleRace.all {
                    specify(race.name) { context in
                        Self.onOwnThread { Self.raceSettles(race, context) }
                    }
                }
            }
            describe(
                "`then` from several threads while another thread settles: every callback is called once, all see the same outcome, and the callbacks one thread registered run in the order it registered them"
            ) {
                for side in [Side.fulfilment, .rejection] {
                    specify(
                        "3 threads registering 8 `then`s each, 4 before a fourth thread \(side.verb)s, 2 while it does, 2 after"
                    ) { context in
                        Self.onOwnThread {
                            Self.runRounds(context) { round in Self.registerWhileSettling(side, round, context) }
                        }
                    }
                }
            }
        }
    }

    /// One way of racing settles: the settle calls made on each promise, from as many threads as
    /// the machine has cores (2 at least).
    struct SettleRace: Sendable {
        let name: String
        let attempts: Int
        /// Attempt `index`: a settle of the deferred, and the outcome it would give.
        let attempt: @Sendable (_ index: Int) -> Attempt

        static var all: [SettleRace] {
            [
                SettleRace(name: "fulfil against reject, 2 calls each way", attempts: 4) { index in
                    index % 2 == 0 ? .fulfil(Marker("fulfilment \(index)")) : .reject(MarkerError("rejection \(index)"))
                },
                SettleRace(name: "8 fulfils with different values", attempts: 8) { index in
                    .fulfil(Marker("fulfilment \(index)"))
                },
                SettleRace(name: "resolve with a thenable that calls back at once, against reject", attempts: 4) {
                    index in
                    index % 2 == 0
                        ? .resolveWithThenable(Marker("thenable's value \(index)"))
                        : .reject(MarkerError("rejection \(index)"))
                },
                SettleRace(name: "resolve with a fulfilled promise of the library, against fulfil", attempts: 4) {
                    index in
                    index % 2 == 0
                        ? .resolveWithPromise(Marker("promise's value \(index)"))
                        : .fulfil(Marker("fulfilment \(index)"))
                },
            ]
        }
    }

    /// What one racing thread does to the deferred.
    enum Attempt: Sendable {
        case fulfil(Marker)
        case reject(MarkerError)
        case resolveWithThenable(Marker)
        case resolveWithPromise(Marker)

        /// The identity of the object the promise's observers see if this attempt wins.
        var outcome: ObjectIdentifier {
            switch self {
            case .fulfil(let marker), .resolveWithThenable(let marker), .resolveWithPromise(let marker):
                ObjectIdentifier(marker)
            case .reject(let error): ObjectIdentifier(error)
            }
        }

        func make(on deferred: APlusDeferred<P>) {
            switch self {
            case .fulfil(let marker): deferred.resolve(marker)
            case .reject(let error): deferred.reject(error)
            case .resolveWithThenable(let marker): deferred.resolve(ScriptedThenable { resolve, _ in resolve(marker) })
            case .resolveWithPromise(let marker): deferred.resolve(P.resolved(marker))
            }
        }
    }

    /// Races `race`'s attempts on strides of new promises, each with three observers registered
    /// before the race and one after it, until ``settleRaceMilliseconds`` have passed, a promise
    /// fails, or the case has ended (it timed out); then ends the case. Runs off the main queue:
    /// the callbacks it waits for run there.
    static func raceSettles(_ race: SettleRace, _ context: CaseContext) {
        // As many threads as the machine has cores, 2 at least, as jcstress runs no more actors
        // than CPUs: a thread that waits for a descheduled one to meet it races no one.
        let threadCount = min(race.attempts, max(2, ProcessInfo.processInfo.activeProcessorCount))
        let racers = RacingThreads(count: threadCount, context: context)
        defer { racers.stop() }
        let roles = (0..<race.attempts).map(race.attempt)
        let ends = DispatchTime.now() + .milliseconds(settleRaceMilliseconds)
        var size = 1
        var stride = 0
        while !context.hasFinished {
            stride += 1
            let promises = (0..<size).map { _ in P.deferred() }
            let logs = (0..<size).map { ObserverLog(context: context, place: "stride \(stride), promise \($0 + 1)") }
            for (log, deferred) in zip(logs, promises) {
                for observer in 0..<3 {
                    log.observe(deferred.promise, as: "observer \(observer), registered before the race")
                }
            }
            // Thread `t` makes attempts `t`, `t + threads`, … of the stride's order, in turn; the
            // order is shuffled from stride to stride, so that every role races every other from
            // each thread.
            let order = shuffledRoles(roles.count, stride: stride)
            guard
                racers.run(
                    promises: size, stride: stride,
                    { thread, index in
                        for attempt in Swift.stride(from: thread, to: order.count, by: threadCount) {
                            roles[order[attempt]].make(on: promises[index])
                        }
                    })
            else { return }
            for (log, deferred) in zip(logs, promises) {
                log.observe(deferred.promise, as: "the observer registered after every settle call returned")
            }
            for log in logs {
                guard log.waitForEveryObserver(), log.checkOneOutcome(among: roles.map(\.outcome)) else {
                    context.done()
                    return
                }
            }
            if DispatchTime.now() >= ends { break }
            size = min(size * 2, largestSettleRaceStride)
        }
        context.done()
    }

    /// The indices `0..<count` in an order that depends on `stride` only (a Fisher–Yates shuffle
    /// driven by a linear congruential generator), so that a failing case runs the same way again.
    static func shuffledRoles(_ count: Int, stride: Int) -> [Int] {
        var order = Array(0..<count)
        var state = UInt64(stride) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        for index in order.indices.reversed() where index > 0 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            order.swapAt(index, Int((state >> 33) % UInt64(index + 1)))
        }
        return order
    }

    /// Registers 8 callbacks from each of 3 threads, while a fourth settles the promise on `side`:
    /// each registers 4, then the settle starts; each registers 2 more at once, racing it, and the
    /// last 2 once the settle call has returned. So every thread has callbacks from before and
    /// after the settle, whatever the interleaving; returns whether the round passed.
    static func registerWhileSettling(_ side: Side, _ round: Int, _ context: CaseContext) -> Bool {
        let deferred = P.deferred()
        let value = Marker("the value")
        let reason = MarkerError("the reason")
        let log = ObserverLog(context: context, place: "round \(round)")
        let registrars = 3
        let perThread = 8
        let firstHalfRegistered = DispatchSemaphore(value: 0)
        let settleReturned = DispatchSemaphore(value: 0)
        let settled = onThreads(registrars + 1, context) { index in
            guard index < registrars else {
                guard waitForSignals(of: firstHalfRegistered, count: registrars, context) else { return }
                side.isFulfilment ? deferred.resolve(value) : deferred.reject(reason)
                for _ in 0..<registrars { settleReturned.signal() }
                return
            }
            func register(_ numbers: Range<Int>) {
                for number in numbers {
                    log.observe(deferred.promise, as: "callback \(number) of thread \(index)", thread: index)
                }
            }
            register(0..<perThread / 2)
            firstHalfRegistered.signal()
            register(perThread / 2..<perThread * 3 / 4)
            guard waitForSignals(of: settleReturned, context) else { return }
            register(perThread * 3 / 4..<perThread)
        }
        guard settled, log.waitForEveryObserver() else { return false }
        let outcome = side.isFulfilment ? ObjectIdentifier(value) : ObjectIdentifier(reason)
        return log.checkOneOutcome(among: [outcome]) && log.checkOrderPerThread()
    }

    /// Runs `round` up to ``threadRounds`` times, stopping at the first that fails, after
    /// ``threadRoundsBudgetSeconds`` once ``minimumThreadRounds`` are done, or when the case has
    /// ended (it timed out), then ends the case. Runs off the main queue: the callbacks it waits
    /// for run there.
    static func runRounds(_ context: CaseContext, _ round: (Int) -> Bool) {
        let budgetEnds = DispatchTime.now() + .seconds(threadRoundsBudgetSeconds)
        for number in 1...threadRounds {
            guard !context.hasFinished else { return }
            guard round(number) else { break }
            if number >= minimumThreadRounds && DispatchTime.now() >= budgetEnds { break }
        }
        context.done()
    }

    /// Runs `body` on a thread of its own, so that a case's rounds never hold the main queue or
    /// a thread of Dispatch's pool.
    static func onOwnThread(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = "Promises/A+ Threads case"
        thread.start()
    }

    /// Runs `body(index)` for each index on `count` threads of their own, all released at once
    /// from a gate they spin on, and returns when every call returned; fails the case if one has not returned
    /// after ``threadRoundWaitSeconds`` seconds.
    static func onThreads(_ count: Int, _ context: CaseContext, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
        let ready = DispatchSemaphore(value: 0)
        let gate = SpinGate()
        let finished = DispatchSemaphore(value: 0)
        for index in 0..<count {
            Thread {
                ready.signal()
                // A thread the gate never opens for (the round gave up) ends without calling in.
                if gate.wait(context) { body(index) }
                finished.signal()
            }.start()
        }
        guard waitForSignals(of: ready, count: count, context) else {
            gate.abandon()
            context.fail("\(count) threads did not start within \(threadRoundWaitSeconds) s, expected all to start")
            return false
        }
        gate.open()
        guard waitForSignals(of: finished, count: count, context) else {
            context.fail(
                "a call to the library from one of \(count) threads had not returned after \(threadRoundWaitSeconds) s, expected it to return at once (a deadlock?)"
            )
            return false
        }
        return true
    }
}

/// Waits until `semaphore` has been signalled `count` times; gives up, returning `false`, after
/// ``threadRoundWaitSeconds`` or as soon as the case has ended (it timed out), so that no round
/// goes on calling the library while later cases run. Semaphores rather than groups: a group
/// freed while entered traps, and a library that drops a callback leaves one entered.
func waitForSignals(of semaphore: DispatchSemaphore, count: Int = 1, _ context: CaseContext) -> Bool {
    let end = DispatchTime.now() + .seconds(threadRoundWaitSeconds)
    var signals = 0
    while signals < count {
        if semaphore.wait(timeout: min(end, .now() + .milliseconds(100))) == .success {
            signals += 1
        } else if context.hasFinished || DispatchTime.now() >= end {
            return false
        }
    }
    return true
}

/// What an observer was called with, compared by identity for an object and by description for
/// anything else: a value type has no identity (each boxing of it would make a new one).
enum OutcomeKey: Hashable {
    case object(ObjectIdentifier)
    case other(String)

    init(_ value: Any?) {
        if let value, type(of: value as Any) is AnyClass {
            self = .object(ObjectIdentifier(value as AnyObject))
        } else {
            self = .other(value.map { String(reflecting: $0) } ?? "nil")
        }
    }
}

/// The words by which a failure of a settle race shows that a settle won twice: an observer called
/// more than once, or observers that saw different outcomes (``ObserverLog``'s two messages below,
/// which spell them out so that each reads whole), for a test that counts the races caught.
package enum SettleWonTwice {
    package static let observerCalledAgain = "times, expected once:"
    package static let differentOutcomes = "the observers saw different outcomes"

    /// Whether `failure` is one of those messages.
    package static func shows(in failure: String) -> Bool {
        failure.contains(observerCalledAgain) || failure.contains(differentOutcomes)
    }
}

/// What the observers of one round saw: which outcome each was called with, how often, and in
/// which order, with the thread that registered it.
final class ObserverLog: Sendable {
    private struct Call {
        let observer: Int
        /// The value or reason the observer was called with.
        let outcome: OutcomeKey
        let described: String
    }

    private struct State {
        var names: [String] = []
        var threads: [Int?] = []
        var calls: [Call] = []
    }

    private let context: CaseContext
    /// Where in the case this log's promise is ("round 3", "stride 6, promise 17"), for messages.
    private let place: String
    /// Signalled by every observer on its first call.
    private let observerCalled = DispatchSemaphore(value: 0)
    /// Guards the observers' names and threads and the calls in the order they came.
    private let state = PromiseMutex(State())

    init(context: CaseContext, place: String) {
        self.context = context
        self.place = place
    }

    /// Registers an observer named `name` on `promise`; `thread` is the registering thread, for
    /// the order check.
    func observe<Adapter: APlusAdapter>(_ promise: SuitePromise<Adapter>, as name: String, thread: Int? = nil) {
        let observer = state.withLock { state in
            state.names.append(name)
            state.threads.append(thread)
            return state.names.count - 1
        }
        _ = promise.then(
            onFulfilled: { value in
                self.record(observer, OutcomeKey(value), "fulfilled with \(show(value))")
                return nil
            },
            onRejected: { reason in
                self.record(observer, OutcomeKey(reason), "rejected with \(reason)")
                return nil
            }
        )
    }

    private func record(_ observer: Int, _ outcome: OutcomeKey, _ described: String) {
        let (earlier, name) = state.withLock { state in
            let earlier = state.calls.filter { $0.observer == observer }
            state.calls.append(Call(observer: observer, outcome: outcome, described: described))
            return (earlier, state.names[observer])
        }
        if let first = earlier.first {
            context.fail(
                "\(place): \(name) was called \(earlier.count + 1) times, expected once: \(first.described), then \(described)"
            )
        } else {
            observerCalled.signal()
        }
    }

    /// Waits until every observer has been called once; fails the case if one has not after
    /// ``threadRoundWaitSeconds`` seconds.
    func waitForEveryObserver() -> Bool {
        let observers = state.withLock { $0.names.count }
        guard waitForSignals(of: observerCalled, count: observers, context) else {
            let missing = state.withLock { state in
                state.names.indices.filter { index in !state.calls.contains { $0.observer == index } }
                    .map { state.names[$0] }
            }
            context.fail(
                "\(place): after \(threadRoundWaitSeconds) s, \(missing.count) observers had not been called, expected every one once: "
                    + missing.prefix(3).joined(separator: "; "))
            return false
        }
        return true
    }

    /// Checks that every observer saw the same outcome, one of `attempted`.
    func checkOneOutcome(among attempted: [ObjectIdentifier]) -> Bool {
        let (calls, names) = state.withLock { ($0.calls, $0.names) }
        guard let first = calls.first else { return true }
        if let differing = calls.first(where: { $0.outcome != first.outcome }) {
            context.fail(
                "\(place): the observers saw different outcomes, expected one for all: \(names[first.observer]) was \(first.described), "
                    + "\(names[differing.observer]) was \(differing.described)")
            return false
        }
        guard case .object(let outcome) = first.outcome, attempted.contains(outcome) else {
            context.fail(
                "\(place): the promise was \(first.described), which no settle call attempted, expected one of the attempted outcomes"
            )
            return false
        }
        return true
    }

    /// Checks that the callbacks each thread registered ran in the order it registered them
    /// (Promises/A+ 2.2.6, per originating thread).
    func checkOrderPerThread() -> Bool {
        let (calls, names, threads) = state.withLock { ($0.calls, $0.names, $0.threads) }
        var lastObserver: [Int: Int] = [:]
        for call in calls {
            guard let thread = threads[call.observer] else { continue }
            if let last = lastObserver[thread], last > call.observer {
                context.fail(
                    "\(place): \(names[call.observer]) ran after \(names[last]), which the same thread registered after it; expected the order of registration"
                )
                return false
            }
            lastObserver[thread] = call.observer
        }
        return true
    }
}
