import CompareKit
import PromiseCosts
import PromiseRuntime

/// The floor: the same callbacks called directly, with no queue and no promise.
///
/// It shows what the work itself costs (the closures, the countdown), so that every other column
/// reads as "work plus machinery".
struct DirectContender: Contender {
    let info = ContenderInfo(
        name: "Direct", kind: .baseline,
        summary: "the scenario's closures called directly on the benchmark thread: no queue, no promise (the floor)")

    func concurrent(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int { try callbacks(inputs, clock, fanOut: false) }
    func fanOut(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int { try callbacks(inputs, clock, fanOut: true) }

    func single(_ inputs: Inputs, blocks: Int) throws -> Int {
        let done = Countdown(inputs.size)
        let step: @Sendable (Int) -> Int = { $0 + 1 }
        for _ in 0..<inputs.size {
            var value = 1
            for _ in 0..<blocks { value = step(value) }
            done.tick(value)
        }
        return try done.sum("direct single")
    }

    /// `concurrent` (callback `index` is called with `index`, doubled) and `fanOut` (every
    /// callback is called with 1).
    private func callbacks(_ inputs: Inputs, _ clock: PhaseClock, fanOut: Bool) throws -> Int {
        let done = Countdown(inputs.size)
        let factor = fanOut ? 1 : 2
        let callbacks: [@Sendable (Int) -> Void] = (0..<inputs.size).map { _ in { done.tick($0 * factor) } }
        return try clock.fire(thenSum: done, "direct callbacks") {
            for (index, callback) in callbacks.enumerated() { callback(fanOut ? 1 : index) }
        }
    }

    /// `chain` (the first link gets a value) and `errors` (it gets an error, which every link
    /// passes on).
    func chain(_ inputs: Inputs, _ clock: PhaseClock, rejecting: Bool) throws -> Int {
        let links: [@Sendable (Result<Int, ChainError>) -> Result<Int, ChainError>] = (0..<inputs.size).map { _ in
            { $0.map { $0 + 1 } }
        }
        clock.markBuilt()
        var result: Result<Int, ChainError> =
            rejecting ? .failure(ChainError(code: Scenario.errorCode)) : .success(0)
        for link in links { result = link(result) }
        switch result {
        case .success(let value): return value
        case .failure(let error): return error.code
        }
    }

    func all(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let n = inputs.size
        // One handler per input, as `all` registers one observer per input, storing under a
        // lock as GCD's baseline does.
        let slots = PromiseMutex([Int?](repeating: nil, count: n))
        let handlers: [@Sendable (Int) -> Void] = (0..<n).map { index in
            { value in slots.withLock { $0[index] = value } }
        }
        clock.markBuilt()
        for index in inputs.order { handlers[index](index) }
        let list = slots.withLock { $0 }
        return list.enumerated().allSatisfy { $0.offset == $0.element } ? n : -1
    }

    func first(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        // The winner's handler is called, the others are dropped.
        let (handlers, result) = raceHandlers(count: inputs.size)
        return try clock.fire(thenTake: result, "direct first") { handlers[inputs.winner](inputs.winner) }
    }

    func workflow(_ inputs: Inputs) throws -> Int {
        var total = 0
        for user in 0..<inputs.size {
            for contact in Services.contacts(of: user) { total += Services.avatarSize(of: contact) }
        }
        return total
    }

    func checkout(_ inputs: Inputs) throws -> Int {
        var total = 0
        for order in 0..<inputs.size {
            do {
                if Services.paymentFails(order: order) { throw Services.PaymentDeclined() }
                total += Services.paidScore
            } catch {
                total += Services.declinedScore
            }
        }
        return total
    }

    func holdPending(count: Int, meter: AllocationMeter) throws -> () throws -> Void {
        let (handlers, done) = storedHandlers(count: count, meter: meter)
        return {
            for handler in handlers { handler(1) }
            _ = try done.sum("direct pending")
        }
    }
}
