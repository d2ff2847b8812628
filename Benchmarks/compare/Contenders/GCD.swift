import CompareKit
import Dispatch
import PromiseCosts
import PromiseRuntime

/// The practical floor: the same shape of work and the same queue hops as the promises, written
/// with completion handlers and raw GCD. Every ratio in the report is taken against this column.
struct GCDContender: Contender, HasQueues {
    let info = ContenderInfo(
        name: "GCD", kind: .baseline,
        summary:
            "completion handlers on raw GCD with the same queues and hops as the promises (every ratio's denominator)")
    let queues = ContenderQueues("gcd")

    func single(_ inputs: Inputs, blocks: Int) throws -> Int {
        let serial = self.serial
        let done = Countdown(inputs.size)
        for _ in 0..<inputs.size { hop(1, remaining: blocks, on: serial, done: done) }
        return try done.sum("GCD single")
    }

    func concurrent(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let done = Countdown(inputs.size)
        let callbacks: [@Sendable (Int) -> Void] = (0..<inputs.size).map { _ in { done.tick($0 * 2) } }
        return try clock.fire(thenSum: done, "GCD concurrent") {
            for (index, callback) in callbacks.enumerated() { concurrentQueue.async { callback(index) } }
        }
    }

    func fanOut(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let done = Countdown(inputs.size)
        let observers: [@Sendable (Int) -> Void] = (0..<inputs.size).map { _ in { done.tick($0) } }
        return try clock.fire(thenSum: done, "GCD fan-out") {
            for observer in observers { serial.async { observer(1) } }
        }
    }

    /// `chain` (the first step gets a value) and `errors` (it gets an error, which every step
    /// passes on).
    func chain(_ inputs: Inputs, _ clock: PhaseClock, rejecting: Bool) throws -> Int {
        let serial = self.serial
        // A linked list of steps; each step runs its block and dispatches the next one.
        let links: [@Sendable (Result<Int, ChainError>) -> Result<Int, ChainError>] = (0..<inputs.size).map { _ in
            { $0.map { $0 + 1 } }
        }
        let result = Handoff<Result<Int, ChainError>>()
        clock.markBuilt()
        let start: Result<Int, ChainError> =
            rejecting ? .failure(ChainError(code: Scenario.errorCode)) : .success(0)
        serial.async { Self.step(0, links, start, on: serial, result: result) }
        switch try result.take("GCD chain") {
        case .success(let value): return value
        case .failure(let error): return error.code
        }
    }

    func all(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let n = inputs.size
        let group = DispatchGroup()
        let values = PromiseMutex([Int?](repeating: nil, count: n))
        for _ in 0..<n { group.enter() }
        let result = Handoff<Int>()
        group.notify(queue: serial) {
            let list = values.withLock { $0 }
            result.put(list.enumerated().allSatisfy { $0.offset == $0.element } ? n : -1)
        }
        clock.markBuilt()
        for index in inputs.order {
            serial.async {
                values.withLock { $0[index] = index }
                group.leave()
            }
        }
        return try result.take("GCD all")
    }

    func first(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        // The winner's completion handler is dispatched when it settles, the others dropped.
        let (handlers, result) = raceHandlers(count: inputs.size)
        clock.markBuilt()
        let winner = inputs.winner
        serial.async { handlers[winner](winner) }
        return try result.take("GCD first")
    }

    func workflow(_ inputs: Inputs) throws -> Int {
        let done = Handoff<Int>()
        runWorkflows(from: 0, count: inputs.size, total: 0, done: done)
        return try done.take("GCD workflow")
    }

    func checkout(_ inputs: Inputs) throws -> Int {
        let done = Handoff<Int>()
        runCheckouts(from: 0, count: inputs.size, total: 0, done: done)
        return try done.take("GCD checkout")
    }

    func cancel(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let serial = self.serial
        let cancelled = AtomicFlag()
        let midway = Midway()
        let finished = Handoff<(cancelled: Bool, steps: Int)>()
        serial.async {
            Self.cancellableStep(0, cancelled: cancelled, midway: midway, on: serial, finished: finished)
        }
        try midway.cancel("GCD cancel") {
            clock.restart()
            _ = cancelled.set()
        }
        let outcome = try finished.take("GCD cancel")
        return clock.cancellation(cancelled: outcome.cancelled, stepsRun: outcome.steps)
    }

    func fairness(_ inputs: Inputs, on queue: DispatchQueue, _ clock: PhaseClock) throws -> Int {
        // Each link a block that dispatches the next: a plain block waits behind one link.
        let done = Countdown(1)
        queue.async { hop(0, remaining: inputs.size, on: queue, done: done) }
        return try done.sum("GCD fairness")
    }

    func holdPending(count: Int, meter: AllocationMeter) throws -> () throws -> Void {
        let (handlers, done) = storedHandlers(count: count, meter: meter)
        let serial = self.serial
        return {
            for handler in handlers { serial.async { handler(1) } }
            _ = try done.sum("GCD pending")
        }
    }

    // MARK: Shapes

    private func hop(_ value: Int, remaining: Int, on queue: DispatchQueue, done: Countdown) {
        queue.async {
            let next = value + 1
            if remaining == 1 { done.tick(next) } else { hop(next, remaining: remaining - 1, on: queue, done: done) }
        }
    }

    private static func step(
        _ index: Int,
        _ links: [@Sendable (Result<Int, ChainError>) -> Result<Int, ChainError>],
        _ value: Result<Int, ChainError>,
        on queue: DispatchQueue,
        result: Handoff<Result<Int, ChainError>>
    ) {
        guard index < links.count else { return result.put(value) }
        let next = links[index](value)
        queue.async { step(index + 1, links, next, on: queue, result: result) }
    }

    private static func cancellableStep(
        _ index: Int,
        cancelled: AtomicFlag,
        midway: Midway,
        on queue: DispatchQueue,
        finished: Handoff<(cancelled: Bool, steps: Int)>
    ) {
        if cancelled.isSet { return finished.put((true, index)) }
        guard index < Scenario.cancelSteps else { return finished.put((false, index)) }
        if index == Scenario.cancelAt { midway.reached() }
        queue.async {
            cancellableStep(index + 1, cancelled: cancelled, midway: midway, on: queue, finished: finished)
        }
    }

    /// A service call: a hop to the I/O queue and back to the serial queue with the answer.
    private func call<T: Sendable>(_ answer: @escaping @Sendable () -> T, then: @escaping @Sendable (T) -> Void) {
        let serial = self.serial
        io.async {
            let value = answer()
            serial.async { then(value) }
        }
    }

    private func runWorkflows(from user: Int, count: Int, total: Int, done: Handoff<Int>) {
        guard user < count else { return done.put(total) }
        call({ user }) { user in
            call({ Services.contacts(of: user) }) { contacts in
                let group = DispatchGroup()
                let sizes = PromiseMutex([Int](repeating: 0, count: contacts.count))
                for (index, contact) in contacts.enumerated() {
                    group.enter()
                    call({ Services.avatarSize(of: contact) }) { size in
                        sizes.withLock { $0[index] = size }
                        group.leave()
                    }
                }
                group.notify(queue: serial) {
                    let sum = sizes.withLock { $0.reduce(0, +) }
                    runWorkflows(from: user + 1, count: count, total: total + sum, done: done)
                }
            }
        }
    }

    private func runCheckouts(from order: Int, count: Int, total: Int, done: Handoff<Int>) {
        guard order < count else { return done.put(total) }
        let finish: @Sendable (Result<Int, any Error>) -> Void = { result in
            let score = (try? result.get()) != nil ? Services.paidScore : Services.declinedScore
            runCheckouts(from: order + 1, count: count, total: total + score, done: done)
        }
        call({ order }) { order in
            call({ () -> Result<Int, any Error> in
                Services.paymentFails(order: order) ? .failure(Services.PaymentDeclined()) : .success(order)
            }) { payment in
                switch payment {
                case .failure(let error): finish(.failure(error))
                case .success(let paid): call({ paid }) { finish(.success($0)) }
                }
            }
        }
    }
}
