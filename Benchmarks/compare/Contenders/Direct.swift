import CompareKit
import PromiseInterface

/// The floor: the same callbacks called directly, with no queue and no promise.
///
/// It shows what the work itself costs (the closures, the countdown), so that every other column
/// reads as "work plus machinery".
struct DirectContender: Contender {
    let info = ContenderInfo(
        name: "Direct",
        kind: .baseline,
        summary: "the scenario's closures called directly on the benchmark thread: no queue, no promise (the floor)"
    )

    func supports(_ scenario: Scenario) -> Bool { scenario != .cancel }

    func run(_ scenario: Scenario, _ inputs: Inputs, clock: PhaseClock) throws -> Int {
        let n = inputs.size
        switch scenario {
        case .single, .single2, .single3:
            let blocks = scenario == .single ? 1 : scenario == .single2 ? 2 : 3
            let done = Countdown(n)
            let step: @Sendable (Int) -> Int = { $0 + 1 }
            for _ in 0..<n {
                var value = 1
                for _ in 0..<blocks { value = step(value) }
                done.tick(value)
            }
            return try done.sum("direct single")
        case .concurrent, .fanOut:
            let done = Countdown(n)
            let factor = scenario == .concurrent ? 2 : 1
            let callbacks: [@Sendable (Int) -> Void] = (0..<n).map { _ in { done.tick($0 * factor) } }
            clock.markBuilt()
            for (index, callback) in callbacks.enumerated() { callback(scenario == .concurrent ? index : 1) }
            return try done.sum("direct callbacks")
        case .chain, .errors:
            let links: [@Sendable (Result<Int, ChainError>) -> Result<Int, ChainError>] = (0..<n).map { _ in
                { $0.map { $0 + 1 } }
            }
            clock.markBuilt()
            var result: Result<Int, ChainError> =
                scenario == .chain ? .success(0) : .failure(ChainError(code: Scenario.errorCode))
            for link in links { result = link(result) }
            switch result {
            case .success(let value): return value
            case .failure(let error): return error.code
            }
        case .all:
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
        case .first:
            // The winner's handler is called, the others are dropped.
            let (handlers, result) = raceHandlers(count: n)
            clock.markBuilt()
            let winner = Scenario.firstWinner(size: n)
            handlers[winner](winner)
            return try result.take("direct first")
        case .workflow:
            var total = 0
            for user in 0..<n {
                for contact in Services.contacts(of: user) { total += Services.avatarSize(of: contact) }
            }
            return total
        case .checkout:
            var total = 0
            for order in 0..<n {
                do {
                    if Services.paymentFails(order: order) { throw Services.PaymentDeclined() }
                    total += Services.paidScore
                } catch {
                    total += Services.declinedScore
                }
            }
            return total
        case .cancel:
            return -1
        }
    }

    func holdPending(count: Int, meter: AllocationMeter) throws -> () throws -> Void {
        let done = Countdown(count)
        var callbacks: [@Sendable (Int) -> Void] = []
        callbacks.reserveCapacity(count)
        meter.measure {
            for _ in 0..<count { callbacks.append { done.tick($0) } }
        }
        return { [callbacks] in
            for callback in callbacks { callback(1) }
            _ = try done.sum("direct pending")
        }
    }
}
