import BatchedPromises
import Dispatch
import TestSupport
import Testing

/// The project's own design only: its callbacks' order while another thread settles, internal
/// nodes by the thousand in one drain, and promises that forward to a root (a flatMap's adopted
/// promise) observed and cancelled from every side.
@Suite("Reliability: Batched", .serialized)
struct BatchedReliabilityTests {
    @Test("Batched: then(on:) and whenComplete(on:) callbacks keep their order while another thread fulfils")
    func callbackOrder() async throws {
        let queue = DispatchQueue(label: "order.batched")
        try await CallbackOrderTests.race(
            prepare: { Promise<Int, Never>.makePending() },
            register: { pending, index, record in
                if index % 2 == 0 {
                    pending.promise.then(on: queue) { _ in record(index) }
                } else {
                    pending.promise.whenComplete(on: queue) { _ in record(index) }
                }
            },
            settle: { pending in pending.resolver.fulfill(1) }
        )
    }

    /// Callbacks on several queues read one settled outcome at the same time. Each must get it,
    /// and none may write it: under ThreadSanitizer an in-place read of the outcome's storage
    /// (an `inout` access, which is a modifying one) was a reported race between such readers.
    @Test("callbacks on four queues read one settled outcome at once, and each gets it")
    func settledOutcomeReadFromManyQueues() async throws {
        let queues = (0..<4).map { DispatchQueue(label: "batched.reader.\($0)") }
        let rounds = stressSize(2_000)
        let perRound = queues.count * 4
        let calls = Countdown(rounds * perRound)
        let wrong = Countdown(0)
        for round in 0..<rounds {
            // An outcome too wide for the promise's two words (stored out of line) and an Int
            // (stored inline), each settled before any callback.
            let (promise, resolver) = Promise<Wide, Never>.makePending()
            let (inline, inlineResolver) = Promise<Int, Never>.makePending()
            resolver.fulfill(Wide(round))
            inlineResolver.fulfill(round)
            for queue in queues {
                for _ in 0..<2 {
                    promise.whenComplete(on: queue) { outcome in
                        if case .fulfilled(let value) = outcome, value == Wide(round) {} else { wrong.tick() }
                        calls.tick()
                    }
                    inline.whenComplete(on: queue) { outcome in
                        if case .fulfilled(let value) = outcome, value == round {} else { wrong.tick() }
                        calls.tick()
                    }
                }
            }
        }
        try await calls.wait("every callback of every round", timeout: heavyTimeout)
        #expect(wrong.remaining == 0, "callbacks that got another outcome: \(-wrong.remaining)")
    }

    @Test("thousands of internal steps in one drain hand their callbacks to their queue")
    func internalStepsInOneDrain() async throws {
        let queue = TaggedQueue("batched.yield")
        let count = stressSize(3_000, underSanitizer: 3)
        let (root, resolver) = Promise<Int, Never>.makePending()
        let seen = Recorder<Bool>()
        let allSeen = Countdown(count)
        for _ in 0..<count {
            // `all` waits through a node with no queue: thousands of them run in the drain that
            // settles `root` (a drain of `queue`), and each hands its callback to `queue`.
            Promise.all([root]).whenComplete(on: queue.queue) { _ in
                if !queue.isCurrent { seen.record(false) }
                allSeen.tick()
            }
        }
        Promise<Int, Never>(value: 0).then(on: queue.queue) { _ in resolver.fulfill(1) }
        try await allSeen.wait("every aggregate's callback", timeout: longTimeout(.seconds(60)))
        #expect(seen.all.isEmpty, "a callback ran off its queue")
    }

    @Test("a promise that forwards to a flatMap's promise is observed, awaited and aggregated with its outcome")
    func forwardedPromiseSeenFromEverySide() async throws {
        let queue = DispatchQueue(label: "batched.forward")
        let (inner, resolver) = Promise<Int, Never>.makePending()
        let seen = Recorder<String>()
        let observed = Countdown(2)
        inner.whenComplete(on: .global()) { outcome in
            seen.record("before \(outcome)")
            observed.tick()
        }
        let outer = Promise<Int, Never>(value: 0).flatMap(on: queue) { _ in inner }
        // The adoption runs in the queue's drain: once a later block runs, `inner` forwards.
        try await waitUntil { done in queue.async { done() } }
        inner.whenComplete(on: .global()) { outcome in
            seen.record("after \(outcome)")
            observed.tick()
        }
        let all = Promise.all([inner, outer])
        let (adopter, adopterResolver) = Promise<Int, Never>.makePending()
        adopterResolver.resolve(inner)
        let awaited = Task { await inner.outcome }
        resolver.fulfill(7)
        #expect(try await awaitOutcome("the awaiting task") { await awaited.value }.get() == .fulfilled(7))
        #expect(try await awaitOutcome("the aggregate") { await all.outcome }.get() == .fulfilled([7, 7]))
        #expect(try await awaitOutcome("the adopter") { await adopter.outcome }.get() == .fulfilled(7))
        #expect(try await awaitOutcome("the flatMap's promise") { await outer.outcome }.get() == .fulfilled(7))
        try await observed.wait("both observers")
        #expect(Set(seen.all) == ["before fulfilled(7)", "after fulfilled(7)"])
    }

    @Test(
        "a cancelled dependent of a forwarding promise cancels nothing others wait for",
        arguments: ["a link", "an aggregate", "an awaiting task"]
    )
    func cancelDependentOfForwardingPromise(dependentKind: String) async throws {
        let queue = DispatchQueue(label: "batched.forward.cancel")
        let (inner, resolver) = Promise<Int, Never>.makePending()
        let outer = Promise<Int, Never>(value: 0).flatMap(on: queue) { _ in inner }
        // Once a later block has run, `inner` forwards to `outer`, which adopted it.
        try await waitUntil { done in queue.async { done() } }
        switch dependentKind {
        case "a link": inner.map(on: .global()) { $0 + 1 }.cancel()
        case "an aggregate": Promise.all([inner]).cancel()
        default:
            let awaiting = Task { await inner.outcome }
            awaiting.cancel()
            #expect(try await awaitOutcome("the cancelled task") { await awaiting.value }.get() == .cancelled)
        }
        #expect(outer.isPending, "the dependent's cancellation cancelled the promise that adopted its input")
        resolver.fulfill(1)
        #expect(try await awaitOutcome("the flatMap's promise") { await outer.outcome }.get() == .fulfilled(1))
    }
}

extension BatchedReliabilityTests {
    /// A task waiting for a promise is cancelled on one thread while another fulfils the promise,
    /// both released at once from a barrier. Each task ends once, with the value or cancelled.
    /// The waiter's state is guarded by the module's own lock, whose ordering ThreadSanitizer
    /// sees: with `Synchronization.Mutex` there (a futex on Linux, handed over in the kernel),
    /// ThreadSanitizer reported a race between the two in about one run in two.
    @Test("a waiting task cancelled while its promise is fulfilled ends once, with the value or cancelled")
    func cancellationRacesFulfilment() async throws {
        struct Round: Sendable {
            let resolver: Promise<Int, Never>.Resolver
            let task: Task<Promise<Int, Never>.Outcome, Never>
        }
        let rounds = try await offPool("the racing rounds", timeout: heavyTimeout) {
            raceRounds(threads: 2, rounds: stressSize(2_000)) { round -> Round in
                let (promise, resolver) = Promise<Int, Never>.makePending()
                let started = DispatchSemaphore(value: 0)
                let task = Task {
                    started.signal()
                    return await promise.outcome
                }
                // The task is about to wait: the race is between its resumption and its withdrawal.
                _ = started.wait(timeout: .now() + defaultTestTimeout.timeInterval)
                return Round(resolver: resolver, task: task)
            } body: { round, thread in
                if thread == 0 { round.resolver.fulfill(1) } else { round.task.cancel() }
            }
        }
        var wrong: [String] = []
        for (index, round) in rounds.enumerated() {
            let ended = try await awaitOutcome("round \(index)'s task") { await round.task.value }.get()
            if ended != .fulfilled(1) && ended != .cancelled { wrong.append("round \(index): \(ended)") }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }
}

/// A value wider than two words.
private struct Wide: Equatable, Sendable {
    let first: Int
    let second: Int
    let third: Int

    init(_ value: Int) { (first, second, third) = (value, value, value) }
}
