import CompareKit
import Dispatch
import PromiseCosts
import PromiseRuntime

/// The peer most new Swift code reaches for: structured concurrency (async functions, task
/// groups, `Task`s), driven from the benchmark thread by one bridging wait per repetition.
///
/// Structured concurrency has no "pending promise settled from outside": the idiom is a
/// continuation kept until someone resumes it. ``AsyncSlot`` is that idiom, with several waiters,
/// and is the only plumbing this contender adds. Chained synchronous steps are plain calls inside
/// one task (that is how the language spells them); a chain link is a `Task` awaiting the
/// previous one, the closest analogue of a promise.
struct SwiftConcurrencyContender: Contender {
    let info = ContenderInfo(
        name: "Swift concurrency", kind: .peer,
        summary:
            "async/await, task groups and `Task`s on the global executor, the workflows on an actor whose executor is a serial queue; pending values are continuations"
    )

    private let io = DispatchQueue(label: "compare.swift.io", attributes: .concurrent)
    /// The workflows run on an actor whose executor is a serial queue, so that every `await` of a
    /// service call resumes on that queue, as raw GCD's workflows hop back to their serial queue
    /// after every call (and as app code on an actor or the main actor does).
    private let workflows = Workflows(executor: SerialQueueExecutor(label: "compare.swift.serial"))

    func single(_ inputs: Inputs, blocks: Int) throws -> Int {
        let n = inputs.size
        return try blockingAwait("Swift single") {
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<n {
                    group.addTask {
                        var value = 1
                        for _ in 0..<blocks { value += 1 }
                        return value
                    }
                }
                return await group.reduce(0, +)
            }
        }
    }

    func concurrent(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let slots = (0..<inputs.size).map { _ in AsyncSlot() }
        let done = Countdown(inputs.size)
        let registered = Countdown(inputs.size)
        for slot in slots {
            Task {
                registered.tick(0)
                if let value = try? await slot.value { done.tick(value * 2) }
            }
        }
        _ = try registered.sum("Swift concurrent: tasks started")
        return try clock.fire(thenSum: done, "Swift concurrent") {
            for (index, slot) in slots.enumerated() { slot.settle(.success(index)) }
        }
    }

    func fanOut(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let root = AsyncSlot()
        let done = Countdown(inputs.size)
        let registered = Countdown(inputs.size)
        for _ in 0..<inputs.size {
            Task {
                registered.tick(0)
                if let value = try? await root.value { done.tick(value) }
            }
        }
        _ = try registered.sum("Swift fan-out: tasks started")
        return try clock.fire(thenSum: done, "Swift fan-out") { root.settle(.success(1)) }
    }

    /// `chain` (the root succeeds) and `errors` (it fails and every link rethrows).
    func chain(_ inputs: Inputs, _ clock: PhaseClock, rejecting: Bool) throws -> Int {
        let root = AsyncSlot()
        var last = Task<Int, any Error> { try await root.value }
        for _ in 0..<inputs.size {
            let previous = last
            last = Task { try await previous.value + 1 }
        }
        clock.markBuilt()
        root.settle(rejecting ? .failure(ChainError(code: Scenario.errorCode)) : .success(0))
        let tail = last
        return try blockingAwait("Swift chain") {
            do { return try await tail.value } catch let error as ChainError { return error.code } catch {
                return -1
            }
        }
    }

    func all(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let n = inputs.size
        let slots = (0..<n).map { _ in AsyncSlot() }
        let result = Handoff<Int>()
        Task {
            let values = await withTaskGroup(of: (Int, Int).self) { group in
                for (index, slot) in slots.enumerated() {
                    group.addTask { (index, (try? await slot.value) ?? -1) }
                }
                var values = [Int](repeating: -1, count: n)
                for await (index, value) in group { values[index] = value }
                return values
            }
            result.put(values.enumerated().allSatisfy { $0.offset == $0.element } ? n : -1)
        }
        return try clock.fire(thenTake: result, "Swift all") {
            for index in inputs.order { slots[index].settle(.success(index)) }
        }
    }

    func first(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        // A task group returns the first child to finish; the others must still finish before
        // the group returns, so they are settled with an error once the winner is known.
        let slots = (0..<inputs.size).map { _ in AsyncSlot() }
        let winnerKnown = Handoff<Int>()
        let result = Handoff<Int>()
        Task {
            let winner = await withTaskGroup(of: Int?.self) { group in
                for slot in slots { group.addTask { try? await slot.value } }
                var winner = -1
                for await value in group {
                    if let value {
                        winner = value
                        break
                    }
                }
                winnerKnown.put(winner)
                group.cancelAll()
                return winner
            }
            result.put(winner)
        }
        clock.markBuilt()
        let winner = inputs.winner
        slots[winner].settle(.success(winner))
        _ = try winnerKnown.take("Swift first: winner")
        for (index, slot) in slots.enumerated() where index != winner { slot.settle(.failure(CancellationError())) }
        return try result.take("Swift first")
    }

    func workflow(_ inputs: Inputs) throws -> Int {
        let (n, io, workflows) = (inputs.size, io, workflows)
        return try blockingAwait("Swift workflow") { await workflows.users(n, io: io) }
    }

    func checkout(_ inputs: Inputs) throws -> Int {
        let (n, io, workflows) = (inputs.size, io, workflows)
        return try blockingAwait("Swift checkout") { await workflows.checkouts(n, io: io) }
    }

    func cancel(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let io = self.io
        let midway = Midway()
        let task = Task { () -> (cancelled: Bool, steps: Int) in
            for step in 0..<Scenario.cancelSteps {
                if Task.isCancelled { return (true, step) }
                _ = await Self.call(on: io) {
                    if step == Scenario.cancelAt { midway.reached() }
                    return step
                }
            }
            return (false, Scenario.cancelSteps)
        }
        try midway.cancel("Swift cancel") {
            clock.restart()
            task.cancel()
        }
        let outcome = try blockingAwait("Swift cancel") { await task.value }
        return clock.cancellation(cancelled: outcome.cancelled, stepsRun: outcome.steps)
    }

    func holdPending(count: Int, meter: AllocationMeter) throws -> () throws -> Void {
        var slots: [AsyncSlot] = []
        slots.reserveCapacity(count)
        let done = Countdown(count)
        let registered = Countdown(count)
        try meter.measure {
            for _ in 0..<count {
                let slot = AsyncSlot()
                slots.append(slot)
                Task {
                    registered.tick(0)
                    if let value = try? await slot.value { done.tick(value) }
                }
            }
            _ = try registered.sum("Swift pending: tasks started")
        }
        return { [slots] in
            for slot in slots { slot.settle(.success(1)) }
            _ = try done.sum("Swift pending")
        }
    }

    /// A simulated service call: a hop to the I/O queue, resumed with the answer.
    fileprivate static func call<T: Sendable>(on queue: DispatchQueue, _ answer: @escaping @Sendable () -> T) async -> T
    {
        await withCheckedContinuation { continuation in queue.async { continuation.resume(returning: answer()) } }
    }

    fileprivate static func call<T: Sendable>(
        on queue: DispatchQueue,
        _ answer: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try answer() }) }
        }
    }
}

/// The workflow scenarios as Swift concurrency code on an actor: each service call's answer
/// resumes the workflow on the actor's executor, a serial queue.
private actor Workflows {
    let executor: SerialQueueExecutor

    init(executor: SerialQueueExecutor) { self.executor = executor }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// The user, contacts, avatars workflow `count` times, one after another.
    func users(_ count: Int, io: DispatchQueue) async -> Int {
        var total = 0
        for user in 0..<count {
            let found = await SwiftConcurrencyContender.call(on: io) { user }
            let contacts = await SwiftConcurrencyContender.call(on: io) { Services.contacts(of: found) }
            total += await withTaskGroup(of: Int.self) { group in
                for contact in contacts {
                    group.addTask { await SwiftConcurrencyContender.call(on: io) { Services.avatarSize(of: contact) } }
                }
                return await group.reduce(0, +)
            }
        }
        return total
    }

    /// The checkout `count` times, one after another.
    func checkouts(_ count: Int, io: DispatchQueue) async -> Int {
        var total = 0
        for order in 0..<count {
            do {
                let placed = await SwiftConcurrencyContender.call(on: io) { order }
                let paid = try await SwiftConcurrencyContender.call(on: io) { () throws -> Int in
                    if Services.paymentFails(order: placed) { throw Services.PaymentDeclined() }
                    return placed
                }
                _ = await SwiftConcurrencyContender.call(on: io) { paid }
                total += Services.paidScore
            } catch {
                total += Services.declinedScore
            }
        }
        return total
    }
}

/// A serial executor on a dispatch queue of its own: the jobs of an actor that uses it run on that
/// queue, one at a time. (Dispatch's `DispatchSerialQueue` is one on Apple's systems; Linux's
/// Dispatch has none.)
final class SerialQueueExecutor: SerialExecutor {
    let queue: DispatchQueue

    init(label: String) { queue = DispatchQueue(label: label) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// Runs `body` in a `Task` and blocks the benchmark thread until it returns (bounded).
func blockingAwait<T: Sendable>(_ what: String, _ body: @escaping @Sendable () async throws -> T) throws -> T {
    let result = Handoff<Result<T, any Error>>()
    Task {
        do { result.put(.success(try await body())) } catch { result.put(.failure(error)) }
    }
    return try result.take(what).get()
}

/// A value settled once from outside and awaited by any number of tasks: the continuation idiom.
final class AsyncSlot: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Int, any Error>])
        case settled(Result<Int, any Error>)
    }
    private let state = PromiseMutex(State.waiting([]))

    var value: Int {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let settled = state.withLock { state -> Result<Int, any Error>? in
                    switch state {
                    case .waiting(var waiters):
                        state = .waiting([])  // so the append below does not copy the array
                        waiters.append(continuation)
                        state = .waiting(waiters)
                        return nil
                    case .settled(let result):
                        return result
                    }
                }
                if let settled { continuation.resume(with: settled) }
            }
        }
    }

    func settle(_ result: Result<Int, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Int, any Error>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .settled(result)
            return waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }
}
