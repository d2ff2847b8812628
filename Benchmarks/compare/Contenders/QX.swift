import CompareKit
import DesignRegistry
import Dispatch
import PromiseCosts
import QXPromises

/// The QX design: each `then` makes a link that observes the previous promise's `state` key
/// through QX's KVO-like observable. Untyped values; `all`, `catch`, no race, no cancellation.
struct QXContender: Contender, HasQueues {
    let info = ContenderInfo(
        name: "QX", kind: .design,
        summary: "[QXPromises](../Implementations/QXPromises): chaining by observing the previous promise's `state` key"
    )
    let queues = ContenderQueues("qx")

    func single(_ inputs: Inputs, blocks: Int) throws -> Int {
        let serial = self.serial
        let done = Countdown(inputs.size)
        for _ in 0..<inputs.size {
            var promise = QXPromise(fulfilledWith: 1, on: serial)
            for _ in 0..<blocks - 1 { promise = promise.then(on: serial) { int($0) + 1 } }
            promise.then(on: serial) { value in
                done.tick(int(value) + 1)
                return nil
            }
        }
        return try done.sum("QX single")
    }

    func concurrent(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let done = Countdown(inputs.size)
        let pendings = (0..<inputs.size).map { _ in QXPromise.pending(on: concurrentQueue) }
        for pending in pendings {
            pending.promise.then(on: concurrentQueue) { value in
                done.tick(int(value) * 2)
                return nil
            }
        }
        return try clock.fire(thenSum: done, "QX concurrent") {
            for (index, pending) in pendings.enumerated() { pending.resolver.fulfill(index) }
        }
    }

    func fanOut(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let done = Countdown(inputs.size)
        let root = QXPromise.pending(on: serial)
        for _ in 0..<inputs.size {
            root.promise.then(on: serial) { value in
                done.tick(int(value))
                return nil
            }
        }
        return try clock.fire(thenSum: done, "QX fan-out") { root.resolver.fulfill(1) }
    }

    /// `chain` (the root fulfils) and `errors` (it rejects and every link is skipped).
    func chain(_ inputs: Inputs, _ clock: PhaseClock, rejecting: Bool) throws -> Int {
        let serial = self.serial
        let root = QXPromise.pending(on: serial)
        var last = root.promise
        for _ in 0..<inputs.size { last = last.then(on: serial) { int($0) + 1 } }
        let result = Handoff<Int>()
        last.then(on: serial) { value in
            result.put(int(value))
            return nil
        }
        .catch(on: serial) { error in
            result.put((error as? ChainError)?.code ?? -1)
            return nil
        }
        clock.markBuilt()
        if rejecting {
            root.resolver.reject(ChainError(code: Scenario.errorCode))
        } else {
            root.resolver.fulfill(0)
        }
        return try result.take("QX chain")
    }

    func all(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let n = inputs.size
        let pendings = (0..<n).map { _ in QXPromise.pending(on: serial) }
        let result = Handoff<Int>()
        QXPromise.all(on: serial, pendings.map(\.promise)).then(on: serial) { values in
            let list = (values as? [PromiseValue] ?? []).map(int)
            result.put(list.enumerated().allSatisfy { $0.offset == $0.element } && list.count == n ? n : -1)
            return nil
        }
        return try clock.fire(thenTake: result, "QX all") {
            for index in inputs.order { pendings[index].resolver.fulfill(index) }
        }
    }

    func workflow(_ inputs: Inputs) throws -> Int {
        let serial = self.serial
        return try inTurn(inputs, "QX workflow") { sum, user in
            call { user }
                .then(on: serial) { user in call { Services.contacts(of: int(user)) } }
                .then(on: serial) { contacts in
                    QXPromise.all(
                        on: serial,
                        (contacts as? [Int] ?? []).map { contact in call { Services.avatarSize(of: contact) } })
                }
                .then(on: serial) { sizes in int(sum) + (sizes as? [PromiseValue] ?? []).map(int).reduce(0, +) }
        }
    }

    func checkout(_ inputs: Inputs) throws -> Int {
        let serial = self.serial
        return try inTurn(inputs, "QX checkout") { sum, order in
            call { order }
                .then(on: serial) { order in
                    if Services.paymentFails(order: int(order)) { throw Services.PaymentDeclined() }
                    return call { int(order) }
                }
                .then(on: serial) { paid in call { int(paid) } }
                .then(on: serial) { _ in int(sum) + Services.paidScore }
                .catch(on: serial) { _ in int(sum) + Services.declinedScore }
        }
    }

    func holdPending(count: Int, meter: AllocationMeter) throws -> () throws -> Void {
        let serial = self.serial
        return pendingPromises(count: count, meter: meter, "QX pending", draining: serial) { done in
            let pending = QXPromise.pending(on: serial)
            let then = pending.promise.then(on: serial) { value in
                done.tick(int(value))
                return nil
            }
            return (pending, then)
        } settle: { pending, _ in
            pending.resolver.fulfill(1)
        }
    }

    /// A simulated service call: a pending promise fulfilled from the I/O queue.
    private func call(_ answer: @escaping @Sendable () -> PromiseValue) -> QXPromise {
        let pending = QXPromise.pending(on: serial)
        io.async { pending.resolver.fulfill(answer()) }
        return pending.promise
    }

    /// The workflows' shape: one step per input, each begun once the one before has ended, on the
    /// sum so far; returns the last sum.
    private func inTurn(
        _ inputs: Inputs, _ what: String, _ step: @escaping @Sendable (_ sum: PromiseValue, _ input: Int) -> QXPromise
    ) throws -> Int {
        let serial = self.serial
        var total = QXPromise(fulfilledWith: 0, on: serial)
        for input in 0..<inputs.size { total = total.then(on: serial) { sum in step(sum, input) } }
        let result = Handoff<Int>()
        total.then(on: serial) { value in
            result.put(int(value))
            return nil
        }
        .catch(on: serial) { _ in
            result.put(-1)
            return nil
        }
        return try result.take(what)
    }
}

extension QXAdapter: ContendingDesign {
    static var contender: any Contender { QXContender() }
}
