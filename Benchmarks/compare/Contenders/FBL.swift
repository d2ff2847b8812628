import CompareKit
import DesignRegistry
import Dispatch
import FBLPromises
import PromiseCosts

/// google/promises' design: typed `FBLPromise<Value>`, `then(on:)` with explicit queues, `all`,
/// `race`, `recover`. No cancellation.
struct FBLContender: Contender, HasQueues {
    let info = ContenderInfo(
        name: "FBL", kind: .design,
        summary: "[FBLPromises](../Implementations/FBLPromises): GCD observers, typed `FBLPromise<Value>`, `then(on:)`")
    let queues = ContenderQueues("fbl")

    func single(_ inputs: Inputs, blocks: Int) throws -> Int {
        let serial = self.serial
        let done = Countdown(inputs.size)
        for _ in 0..<inputs.size {
            var promise = FBLPromise(1)
            for _ in 0..<blocks - 1 { promise = promise.then(on: serial) { $0 + 1 } }
            promise.then(on: serial) { done.tick($0 + 1) }
        }
        return try done.sum("FBL single")
    }

    func concurrent(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let done = Countdown(inputs.size)
        let promises = (0..<inputs.size).map { _ in FBLPromise<Int>.pending() }
        for promise in promises { promise.then(on: concurrentQueue) { done.tick($0 * 2) } }
        return try clock.fire(thenSum: done, "FBL concurrent") {
            for (index, promise) in promises.enumerated() { promise.fulfill(index) }
        }
    }

    func fanOut(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let done = Countdown(inputs.size)
        let root = FBLPromise<Int>.pending()
        for _ in 0..<inputs.size { root.then(on: serial) { done.tick($0) } }
        return try clock.fire(thenSum: done, "FBL fan-out") { root.fulfill(1) }
    }

    /// `chain` (the root fulfils) and `errors` (it rejects and every link is skipped).
    func chain(_ inputs: Inputs, _ clock: PhaseClock, rejecting: Bool) throws -> Int {
        let serial = self.serial
        let root = FBLPromise<Int>.pending()
        var last = root
        for _ in 0..<inputs.size { last = last.then(on: serial) { $0 + 1 } }
        let result = Handoff<Int>()
        last.then(on: serial) { result.put($0) }
            .catch(on: serial) { result.put(($0 as? ChainError)?.code ?? -1) }
        return try clock.fire(thenTake: result, "FBL chain") {
            if rejecting { root.reject(ChainError(code: Scenario.errorCode)) } else { root.fulfill(0) }
        }
    }

    func all(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let n = inputs.size
        let promises = (0..<n).map { _ in FBLPromise<Int>.pending() }
        let result = Handoff<Int>()
        FBLPromises.all(on: serial, promises).then(on: serial) { values in
            result.put(values.enumerated().allSatisfy { $0.offset == $0.element } ? n : -1)
        }
        return try clock.fire(thenTake: result, "FBL all") {
            for index in inputs.order { promises[index].fulfill(index) }
        }
    }

    func first(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let promises = (0..<inputs.size).map { _ in FBLPromise<Int>.pending() }
        let result = Handoff<Int>()
        FBLPromises.race(on: serial, promises).then(on: serial) { result.put($0) }
        return try clock.fire(thenTake: result, "FBL first") { promises[inputs.winner].fulfill(inputs.winner) }
    }

    func workflow(_ inputs: Inputs) throws -> Int {
        let serial = self.serial
        return try inTurn(inputs, "FBL workflow") { sum, user in
            call { user }
                .then(on: serial) { user in call { Services.contacts(of: user) } }
                .then(on: serial) { contacts in
                    FBLPromises.all(on: serial, contacts.map { contact in call { Services.avatarSize(of: contact) } })
                }
                .then(on: serial) { sizes in sum + sizes.reduce(0, +) }
        }
    }

    func checkout(_ inputs: Inputs) throws -> Int {
        let serial = self.serial
        return try inTurn(inputs, "FBL checkout") { sum, order in
            call { order }
                .then(on: serial) { order in
                    call { () throws -> Int in
                        if Services.paymentFails(order: order) { throw Services.PaymentDeclined() }
                        return order
                    }
                }
                .then(on: serial) { paid in call { paid } }
                .then(on: serial) { _ in sum + Services.paidScore }
                .recover(on: serial) { _ in sum + Services.declinedScore }
        }
    }

    func holdPending(count: Int, meter: AllocationMeter) throws -> () throws -> Void {
        let serial = self.serial
        return pendingPromises(count: count, meter: meter, "FBL pending") { done in
            let root = FBLPromise<Int>.pending()
            return (root, root.then(on: serial) { done.tick($0) })
        } settle: { root, _ in
            root.fulfill(1)
        }
    }

    /// A simulated service call: the answer made on the I/O queue (`FBLPromise(on:)`), observed
    /// back on the serial queue by the caller's `then(on:)`.
    private func call<T: Sendable>(_ answer: @escaping @Sendable () throws -> T) -> FBLPromise<T> {
        FBLPromise(on: io) { fulfill, _ in fulfill(try answer()) }
    }

    /// The workflows' shape: one step per input, each begun once the one before has ended, on the
    /// sum so far; returns the last sum.
    private func inTurn(
        _ inputs: Inputs, _ what: String, _ step: @escaping @Sendable (_ sum: Int, _ input: Int) -> FBLPromise<Int>
    ) throws -> Int {
        let serial = self.serial
        var total = FBLPromise(0)
        for input in 0..<inputs.size { total = total.then(on: serial) { sum in step(sum, input) } }
        let result = Handoff<Int>()
        total.then(on: serial) { result.put($0) }.catch(on: serial) { _ in result.put(-1) }
        return try result.take(what)
    }
}

extension FBLAdapter: ContendingDesign {
    static var contender: any Contender { FBLContender() }
}
