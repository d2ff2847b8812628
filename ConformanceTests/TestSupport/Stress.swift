import Dispatch
import Foundation
import PromiseRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Helpers for stress and depth tests: whether a sanitizer is active (so heavy sizes can shrink),
// and a way to run heavy synchronous work off the main queue and off the cooperative pool.

/// The sanitizer this test process was built with, detected at run time.
///
/// ThreadSanitizer and AddressSanitizer export their initialisers (`__tsan_init`, `__asan_init`)
/// from the instrumented binary; a plain build has neither symbol.
public enum Sanitizer: String, Sendable {
    case none
    case thread
    case address

    /// The sanitizer of this process; looked up once.
    public static let active: Sanitizer = {
        // `dlopen(nil)` is the main program and everything it loaded.
        guard let handle = dlopen(nil, RTLD_NOW) else { return .none }
        defer { dlclose(handle) }
        if dlsym(handle, "__tsan_init") != nil { return .thread }
        if dlsym(handle, "__asan_init") != nil { return .address }
        return .none
    }()

    /// True under any sanitizer.
    public static var isActive: Bool { active != .none }
}

/// A size for a heavy test: `full` in a plain run; under a sanitizer (5 to 20 times slower, and the
/// suite shares two cores) `full` divided by `divisor`, never below 1.
///
/// - Parameters:
///   - full: the size in a plain run (the figure the report gives).
///   - divisor: how much to shrink under TSan or ASan (default 10).
public func stressSize(_ full: Int, underSanitizer divisor: Int = 10) -> Int {
    Sanitizer.isActive ? max(1, full / divisor) : full
}

/// Runs `work` on a private serial queue and waits (with a timeout) for its result, so that
/// building a 100,000-link chain neither blocks the shared main queue nor one of the two threads
/// of the cooperative pool.
///
/// - Parameters:
///   - what: what the work is, for the timeout error.
///   - timeout: how long to wait for `work` to return.
///   - work: the synchronous work; runs once, on a queue of its own.
/// - Returns: what `work` returned.
/// - Throws: ``TimedOut`` if `work` does not return in time, or what `work` throws.
public func offPool<Value: Sendable>(
    _ what: String = "heavy work",
    timeout: Duration = defaultTestTimeout,
    _ work: @escaping @Sendable () throws -> Value
) async throws -> Value {
    let queue = DispatchQueue(label: "TestSupport.offPool")
    return try await awaitCompletion(what, timeout: timeout) { complete in
        queue.async { complete(Result { try work() }) }
    }
}

/// Runs `rounds` rounds on `threads` long-lived threads. Each round the caller's thread makes a
/// fresh context with `prepare`, then every thread runs `body(context, index)`; the threads meet
/// at a barrier first so that they start the round together and really race. Returns when every
/// round is done, and returns the contexts in round order.
///
/// Blocks the calling thread: call it inside ``offPool(_:timeout:_:)``.
///
/// - Parameters:
///   - threads: how many threads race in each round.
///   - rounds: how many rounds.
///   - prepare: makes one round's context, on the calling thread, before the round starts.
///   - body: the work of one thread in one round; gets the round's context and the thread's index.
/// - Returns: every round's context, in order.
public func raceRounds<Context: Sendable>(
    threads: Int,
    rounds: Int,
    prepare: (Int) -> Context,
    body: @escaping @Sendable (Context, Int) -> Void
) -> [Context] {
    let current = RoundBox<Context>()
    let starts = (0..<threads).map { _ in DispatchSemaphore(value: 0) }
    let done = DispatchSemaphore(value: 0)
    let barrier = RoundBarrier(parties: threads)
    for index in 0..<threads {
        let start = starts[index]
        let thread = Thread {
            for _ in 0..<rounds {
                start.wait()
                guard let context = current.value else { continue }
                barrier.arriveAndWait()
                body(context, index)
                done.signal()
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    var contexts: [Context] = []
    contexts.reserveCapacity(rounds)
    for round in 0..<rounds {
        let context = prepare(round)
        contexts.append(context)
        current.value = context
        for start in starts { start.signal() }
        for _ in 0..<threads { done.wait() }
    }
    return contexts
}

/// The context of the current round, handed from the preparing thread to the racing threads.
/// `@unchecked Sendable`: `lock` guards `stored`.
private final class RoundBox<Context: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Context?

    var value: Context? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            stored = newValue
        }
    }
}

/// A reusable barrier: `parties` threads call `arriveAndWait()`; none returns before all arrived.
/// Waiting threads sleep on a condition (spinning would starve the rest of the suite on two cores,
/// badly so under ThreadSanitizer); the last to arrive wakes them all at once.
/// `@unchecked Sendable`: `condition` guards `count` and `generation`.
private final class RoundBarrier: @unchecked Sendable {
    private let parties: Int
    private let condition = NSCondition()
    private var count = 0
    private var generation = 0

    init(parties: Int) { self.parties = parties }

    func arriveAndWait() {
        condition.lock()
        defer { condition.unlock() }
        let arrivedIn = generation
        count += 1
        if count == parties {
            count = 0
            generation += 1
            condition.broadcast()
            return
        }
        while generation == arrivedIn { condition.wait() }
    }
}
