// The two ways the cases for several threads start threads together: a gate that threads spin on
// (``SpinGate``), and threads kept for a whole settle race that meet before every promise
// (``RacingThreads``). Both spin on an atomic word rather than wait on a semaphore, so that the
// threads leave within a few hundred nanoseconds of one another, not a thread wake-up apart;
// both yield their core now and then while they spin, so that the threads they wait for get to
// run.

import Dispatch
import Foundation
import PromiseRuntime
import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How many spins a thread waiting at a ``SpinGate`` makes between two yields of its core: the
/// gate's threads can outnumber the cores.
private let spinsBetweenYields = 64

/// How many spins a racing thread makes before it yields its core: some 10 to 100 microseconds.
/// The racing threads are no more than the cores, so the one awaited is running, or was
/// descheduled for another process; spinning through the wait keeps the two on their cores
/// together once they meet, so that a loaded machine still has stretches of promises raced by two
/// threads running at once.
private let racingSpinsBeforeYielding = 1 << 14

/// A gate that threads spin on until it opens, or until it is abandoned, their case ends or
/// ``threadRoundWaitSeconds`` pass.
final class SpinGate: Sendable {
    /// 0 while closed, 1 once open, 2 once abandoned.
    private let state = Atomic<Int>(0)

    func open() { state.store(1, ordering: .releasing) }

    func abandon() { state.store(2, ordering: .releasing) }

    /// Spins until the gate opens (`true`), or it is abandoned, the case has ended or
    /// ``threadRoundWaitSeconds`` have passed (`false`).
    func wait(_ context: CaseContext) -> Bool {
        let deadline = DispatchTime.now() + .seconds(threadRoundWaitSeconds)
        var spins = 0
        while true {
            switch state.load(ordering: .acquiring) {
            case 1: return true
            case 2: return false
            default: break
            }
            spins += 1
            if spins % spinsBetweenYields == 0 {
                sched_yield()
                if spins % (spinsBetweenYields * 256) == 0 && (context.hasFinished || DispatchTime.now() >= deadline) {
                    return false
                }
            }
        }
    }
}

/// Threads kept for every stride of one settle race: in a stride they run `body(thread, promise)`
/// for each promise, meeting before each one, so that their calls on one promise start together.
///
/// After the meeting each thread spins a pseudo-random number of times, up to a range that grows
/// from 16 to 1,024 spins and starts again every seven strides (a few nanoseconds to about a
/// microsecond), so that the gap between two threads' calls sweeps across a window of any width
/// in that range, whatever the difference between the paths their roles take through the library.
final class RacingThreads: Sendable {
    /// What the threads run in the current stride.
    private struct Stride: Sendable {
        let promises: Int
        let number: Int
        /// ``arrivals`` when the stride started: the meeting before promise `i` is passed at
        /// `base + (i + 1) * count` arrivals.
        let base: Int
        let body: @Sendable (_ thread: Int, _ promise: Int) -> Void
    }

    let count: Int
    private let context: CaseContext
    /// How many times the threads have arrived at a meeting, over the whole race. A thread arrives
    /// at the next meeting only after it passed the one before, that is after every thread had
    /// arrived there, so one counter serves every meeting.
    private let arrivals = Atomic<Int>(0)
    /// Set once a thread or the caller gives up, so that no thread spins for one that will not
    /// come.
    private let abandoned = Atomic<Bool>(false)
    /// Set by ``stop()``: the threads end.
    private let stopping = Atomic<Bool>(false)
    /// Guards the current stride, set before the threads are started on it.
    private let current = PromiseMutex<Stride?>(nil)
    /// Signalled once per thread to start a stride, or to end once ``stopping`` is set.
    private let strideStarts: [DispatchSemaphore]
    /// Signalled by each thread when it has run its part of a stride.
    private let strideEnded = DispatchSemaphore(value: 0)
    /// A word no one writes, which the spins after a meeting read: a load the optimiser keeps.
    private let idle = Atomic<Int>(0)

    /// Starts `count` threads, which wait for the first ``run(promises:stride:_:)``.
    init(count: Int, context: CaseContext) {
        self.count = count
        self.context = context
        strideStarts = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        for thread in 0..<count {
            let racer = Thread { self.serve(thread) }
            racer.name = "Promises/A+ settle race \(thread + 1) of \(count)"
            racer.start()
        }
    }

    /// Runs `body(thread, promise)` on every thread for each of `promises` promises, the threads
    /// meeting before each; returns once every thread has run its part (`true`), or `false` when
    /// the case has ended, or a call has not returned after ``threadRoundWaitSeconds`` (it fails
    /// the case then). Call it from one thread, one stride at a time.
    func run(promises: Int, stride: Int, _ body: @escaping @Sendable (_ thread: Int, _ promise: Int) -> Void) -> Bool {
        // Every thread is between strides, so the counter stands still.
        let base = arrivals.load(ordering: .acquiring)
        current.withLock { $0 = Stride(promises: promises, number: stride, base: base, body: body) }
        for start in strideStarts { start.signal() }
        guard waitForSignals(of: strideEnded, count: count, context) else {
            abandoned.store(true, ordering: .releasing)
            if !context.hasFinished {
                context.fail(
                    "a settle call from one of \(count) racing threads had not returned after \(threadRoundWaitSeconds) s, expected it to return at once (a deadlock?)"
                )
            }
            return false
        }
        return !abandoned.load(ordering: .acquiring)
    }

    /// Ends the threads once they are between strides.
    func stop() {
        stopping.store(true, ordering: .releasing)
        abandoned.store(true, ordering: .releasing)
        for start in strideStarts { start.signal() }
    }

    private func serve(_ thread: Int) {
        var random = UInt64(thread + 1) &* 0x9E37_79B9_7F4A_7C15
        while true {
            // Between strides the caller waits for observers, which a loaded run can stall for
            // long: wait without a deadline, until a stride starts or the case has ended.
            while strideStarts[thread].wait(timeout: .now() + .milliseconds(100)) == .timedOut {
                if context.hasFinished { return }
            }
            guard !stopping.load(ordering: .acquiring), let stride = current.withLock({ $0 }) else { return }
            let deadline = DispatchTime.now() + .seconds(threadRoundWaitSeconds)
            let range = UInt64(16 << (stride.number % 7))
            for promise in 0..<stride.promises {
                guard meet(at: stride.base + (promise + 1) * count, deadline: deadline) else { break }
                // xorshift64: a spin count that differs from thread to thread and promise to promise.
                random ^= random << 13
                random ^= random >> 7
                random ^= random << 17
                for _ in 0..<(random % range) { _ = idle.load(ordering: .relaxed) }
                stride.body(thread, promise)
            }
            strideEnded.signal()
        }
    }

    /// Arrives at a meeting and spins until ``arrivals`` reaches `target`; `false` once the race is
    /// abandoned, the case has ended or `deadline` has passed.
    private func meet(at target: Int, deadline: DispatchTime) -> Bool {
        arrivals.add(1, ordering: .acquiringAndReleasing)
        var spins = 0
        while arrivals.load(ordering: .acquiring) < target {
            spins += 1
            guard spins % racingSpinsBeforeYielding == 0 else { continue }
            if abandoned.load(ordering: .acquiring) { return false }
            sched_yield()
            if spins % (racingSpinsBeforeYielding * 16) == 0 && (context.hasFinished || DispatchTime.now() >= deadline)
            {
                abandoned.store(true, ordering: .releasing)
                return false
            }
        }
        return true
    }
}
