import CompareKit
import Dispatch
import Foundation
import PromiseCosts
import PromiseRuntime
import Synchronization

/// Why a run stopped.
enum BenchmarkError: Error, CustomStringConvertible {
    case timedOut(String)
    case wrongResult(contender: String, scenario: String, size: Int, expected: Int, got: Int)
    case invalidArgument(String)

    var description: String {
        switch self {
        case .timedOut(let what):
            return "timed out waiting for \(what): the implementation lost a callback or deadlocked"
        case .wrongResult(let contender, let scenario, let size, let expected, let got):
            return "\(contender) gave a wrong result on \(scenario) (N = \(size)): expected \(expected), got \(got). "
                + "Nothing was timed for a wrong implementation; fix it first."
        case .invalidArgument(let message):
            return message
        }
    }
}

/// How long any single wait may take before the run fails instead of hanging.
let waitLimit: DispatchTimeInterval = .seconds(120)

/// Waits on `semaphore` at most ``waitLimit``.
func waitOrThrow(_ semaphore: DispatchSemaphore, for what: @autoclosure () -> String) throws {
    if semaphore.wait(timeout: .now() + waitLimit) == .timedOut { throw BenchmarkError.timedOut(what()) }
}

extension Countdown {
    /// Waits for the last tick (at most ``waitLimit``) and returns the sum of the values.
    func sum(_ what: @autoclosure () -> String) throws -> Int {
        guard let sum = sum(waitingAtMost: waitLimit) else { throw BenchmarkError.timedOut(what()) }
        return sum
    }
}

/// The baselines' `first`: one handler per input, as a race registers one observer per input;
/// the first handler called hands its value to `result`, later ones do nothing.
func raceHandlers(count: Int) -> (handlers: [@Sendable (Int) -> Void], result: Handoff<Int>) {
    let decided = AtomicFlag()
    let result = Handoff<Int>()
    let handlers: [@Sendable (Int) -> Void] = (0..<count).map { _ in
        { value in if !decided.set() { result.put(value) } }
    }
    return (handlers, result)
}

/// The memory scenario's shape: `count` pending promises, each made with one `then` by `make`
/// inside `meter.measure` (the array that holds them is reserved outside it; `queue`, when given,
/// is drained inside it, so that what wiring up schedules there is counted too). Returns the
/// function that settles each with `settle` and waits for every callback.
func pendingPromises<Held>(
    count: Int, meter: AllocationMeter, _ what: String, draining queue: DispatchQueue? = nil,
    make: (_ done: Countdown) -> Held, settle: @escaping (Held) -> Void
) -> () throws -> Void {
    let done = Countdown(count)
    var held: [Held] = []
    held.reserveCapacity(count)
    meter.measure {
        for _ in 0..<count { held.append(make(done)) }
        queue?.sync {}
    }
    return { [held] in
        for item in held { settle(item) }
        _ = try done.sum(what)
    }
}

/// The baselines' pending promises, in completion-handler style: `count` stored handlers waiting
/// for their values, made inside `meter.measure`, each ticking `done`.
func storedHandlers(count: Int, meter: AllocationMeter) -> (handlers: [@Sendable (Int) -> Void], done: Countdown) {
    let done = Countdown(count)
    var handlers: [@Sendable (Int) -> Void] = []
    handlers.reserveCapacity(count)
    meter.measure {
        for _ in 0..<count { handlers.append { done.tick($0) } }
    }
    return (handlers, done)
}

/// A flag and a counter that closures can share (an `Atomic` itself cannot be captured).
final class AtomicFlag: Sendable {
    private let value = Atomic<Bool>(false)
    init() {}
    /// Sets the flag; returns whether it was already set.
    func set() -> Bool { value.exchange(true, ordering: .acquiringAndReleasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

final class AtomicCounter: Sendable {
    private let value = Atomic<Int>(0)
    init() {}
    func increment() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

/// The meeting point of the cancellation scenario: the step at ``Scenario/cancelAt`` waits there
/// until the benchmark thread has called `cancel()`, so every contender is cancelled at the same
/// step, however fast its steps run.
final class Midway: Sendable {
    private let arrived = DispatchSemaphore(value: 0)
    private let cancelled = DispatchSemaphore(value: 0)

    init() {}

    /// Called by the step: wakes the benchmark thread and waits for the cancellation.
    func reached() {
        arrived.signal()
        _ = cancelled.wait(timeout: .now() + waitLimit)
    }

    /// Called by the benchmark thread: waits for the step, runs `cancel`, lets the step go on.
    func cancel(_ what: String, _ cancel: () -> Void) throws {
        try waitOrThrow(arrived, for: "\(what): step \(Scenario.cancelAt)")
        cancel()
        cancelled.signal()
    }
}

/// A value handed from a callback to the waiting benchmark thread.
final class Handoff<Value: Sendable>: Sendable {
    private let slot = PromiseMutex<Value?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    init() {}

    func put(_ value: Value) {
        slot.withLock { $0 = value }
        ready.signal()
    }

    func take(_ what: @autoclosure () -> String) throws -> Value {
        try waitOrThrow(ready, for: what())
        return slot.withLock { $0! }
    }
}

/// Marks the phases of one repetition: building (wiring promises up) and firing (settling the
/// root and waiting for the result). A contender marks the end of the first with ``markBuilt()``,
/// or fires through ``fire(thenSum:_:_:)`` and ``fire(thenTake:_:_:)``, which mark it; one that
/// has a setup it must not be timed for (cancellation) calls ``restart()`` after it, and one whose
/// time ends at a callback (cancellation again) calls ``markFinished()`` once it has the callback's
/// value, so that freeing what the run made, when the contender returns, is not timed.
final class PhaseClock: Sendable {
    private struct Marks {
        var start = ContinuousClock.now
        var built: ContinuousClock.Instant?
        var finished: ContinuousClock.Instant?
        var metrics: [String: Double] = [:]
    }
    private let marks = PromiseMutex(Marks())

    func restart() { marks.withLock { $0.start = .now } }
    func markBuilt() { marks.withLock { $0.built = .now } }
    func markFinished() { marks.withLock { $0.finished = .now } }
    /// When the build phase ended, if it has (the start, for a contender that marks no phase).
    var builtAt: ContinuousClock.Instant { marks.withLock { $0.built ?? $0.start } }
    func record(_ metric: String, _ value: Double) { marks.withLock { $0.metrics[metric] = value } }

    /// Ends the build phase, runs `settle` (which settles the roots), and waits for the callbacks'
    /// sum: the firing phase of most scenarios.
    func fire(thenSum done: Countdown, _ what: @autoclosure () -> String, _ settle: () -> Void) throws -> Int {
        markBuilt()
        settle()
        return try done.sum(what())
    }

    /// Ends the build phase, runs `settle`, and waits for the value handed to `result`.
    func fire<Value>(
        thenTake result: Handoff<Value>, _ what: @autoclosure () -> String, _ settle: () -> Void
    )
        throws -> Value
    {
        markBuilt()
        settle()
        return try result.take(what())
    }

    /// Ends a cancellation run once the benchmark thread has the final callback's value: stops the
    /// clock, records how many steps still ran, and returns the checksum (1 if it ended cancelled).
    func cancellation(cancelled: Bool, stepsRun: Int) -> Int {
        markFinished()
        record("stepsRun", Double(stepsRun))
        return cancelled ? 1 : 0
    }

    /// `(build, fire)` in seconds up to `end`, or up to the finished mark if the contender set
    /// one; build is 0 when the contender marked no phase.
    func phases(until end: ContinuousClock.Instant) -> (build: Double, fire: Double, metrics: [String: Double]) {
        marks.withLock { marks in
            let end = marks.finished ?? end
            let built = marks.built ?? marks.start
            return ((built - marks.start).seconds, (end - built).seconds, marks.metrics)
        }
    }
}

extension Duration {
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) * 1e-18
    }
}

/// What one repetition gets: the size and a random order in which to settle inputs.
struct Inputs: Sendable {
    let size: Int
    /// A permutation of `0..<size`, the same for every contender (seeded).
    let order: [Int]
    /// The input of `first` that settles.
    var winner: Int { Self.winner(size: size) }
    static func winner(size: Int) -> Int { size * 7 / 10 }

    init(size: Int) {
        self.size = size
        var generator = SplitMix64(seed: UInt64(size))
        order = Array(0..<size).shuffled(using: &generator)
    }
}

/// The simulated services of the workflow scenarios, the same numbers for every contender.
enum Services {
    /// Contacts per user.
    static let contactsPerUser = 10
    static func contacts(of user: Int) -> [Int] { (0..<contactsPerUser).map { user * 100 + $0 } }
    static func avatarSize(of contact: Int) -> Int { contact % 7 + 1 }
    /// The checkout's payment fails for one order in ten.
    static func paymentFails(order: Int) -> Bool { order % 10 == 0 }
    struct PaymentDeclined: Error {}
    /// What a finished checkout adds to the checksum: 1 when paid, 1,000 when the payment failed.
    static let paidScore = 1
    static let declinedScore = 1_000
}

/// The queues of the fairness scenario: one serial queue shared by its contenders (it runs one
/// contender at a time), and the main queue.
enum Fairness {
    static let serial = DispatchQueue(label: "compare.fairness.serial")
}

/// Plain blocks dispatched onto a queue every 0.5 ms from a thread of their own, each noting when
/// it was sent and how long it waited to start: what a block of an app's or a server's waits
/// behind a long chain.
final class ForeignBlocks: Sendable {
    private let stopped = AtomicFlag()
    /// Each block's send time and wait, in the order they ran.
    private let waits = PromiseMutex<[(sent: ContinuousClock.Instant, waited: Duration)]>([])
    private let finished = DispatchSemaphore(value: 0)

    init(onto queue: DispatchQueue) {
        let thread = Thread { [self] in
            while !stopped.isSet {
                let sent = ContinuousClock.now
                queue.async {
                    let waited = ContinuousClock.now - sent
                    self.waits.withLock { $0.append((sent, waited)) }
                }
                Thread.sleep(forTimeInterval: 0.000_5)
            }
            // The last block has run once one sent after it has.
            queue.async { self.finished.signal() }
        }
        thread.start()
    }

    /// Stops the blocks; returns, once the last has run, the longest wait in milliseconds of the
    /// blocks sent at `start` or later: those sent while the chain drained, not while it was built.
    /// While it is built the queue is idle, and a block waits for the queue's thread to be
    /// scheduled: on a 2-core virtual machine the kernel at times woke that thread on the core
    /// that was building the chain, and it waited a scheduler tick (4 ms at 250 Hz) with the other
    /// core idle, which says nothing of the drain.
    func stop(countingBlocksSentFrom start: ContinuousClock.Instant) -> Double {
        _ = stopped.set()
        _ = finished.wait(timeout: .now() + waitLimit)
        let longest = waits.withLock { waits in
            waits.filter { $0.sent >= start }.map(\.waited).max() ?? .zero
        }
        let (seconds, attoseconds) = longest.components
        return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
    }
}
