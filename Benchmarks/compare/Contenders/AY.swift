import AYPromises
import CompareKit
import DesignRegistry
import Dispatch
import PromiseCosts

/// The AY design: untyped values, closure-property operators (`thenOn(queue) { }`, `catchOn`),
/// `AYPromise.all` / `race` (first *fulfilled*). No cancellation.
///
/// Pending promises settled from outside come from `AYPromise.pending()`, `withResolve` without
/// its block (which would cost a main-queue hop per promise). Values are untyped (`Any?`), so
/// blocks cast.
struct AYContender: Contender {
    let info = ContenderInfo(
        name: "AY", kind: .design,
        summary:
            "[AYPromises](../Implementations/AYPromises): closure-property chaining, untyped values, `thenOn(queue)`")

    private let serial = DispatchQueue(label: "compare.ay.serial")
    private let concurrentQueue = DispatchQueue(label: "compare.ay.concurrent", attributes: .concurrent)

    func single(_ inputs: Inputs, blocks: Int) throws -> Int {
        let serial = self.serial
        let done = Countdown(inputs.size)
        for _ in 0..<inputs.size {
            var promise = AYPromise.resolve(1)
            for _ in 0..<blocks - 1 { promise = promise.thenOn(serial) { (value: PromiseValue) in int(value) + 1 } }
            promise.thenOn(serial) { (value: PromiseValue) in done.tick(int(value) + 1) }
        }
        return try done.sum("AY single")
    }

    func concurrent(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let done = Countdown(inputs.size)
        let deferreds = (0..<inputs.size).map { _ in AYPromise.pending() }
        for deferred in deferreds {
            deferred.promise.thenOn(concurrentQueue) { (value: PromiseValue) in done.tick(int(value) * 2) }
        }
        return try clock.fire(thenSum: done, "AY concurrent") {
            for (index, deferred) in deferreds.enumerated() { deferred.resolve(index) }
        }
    }

    func fanOut(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let done = Countdown(inputs.size)
        let root = AYPromise.pending()
        for _ in 0..<inputs.size { root.promise.thenOn(serial) { (value: PromiseValue) in done.tick(int(value)) } }
        return try clock.fire(thenSum: done, "AY fan-out") { root.resolve(1) }
    }

    /// `chain` (the root fulfils) and `errors` (it rejects and every link is skipped).
    func chain(_ inputs: Inputs, _ clock: PhaseClock, rejecting: Bool) throws -> Int {
        let serial = self.serial
        let root = AYPromise.pending()
        var last = root.promise
        for _ in 0..<inputs.size { last = last.thenOn(serial) { (value: PromiseValue) in int(value) + 1 } }
        let result = Handoff<Int>()
        last.thenOn(serial) { (value: PromiseValue) in result.put(int(value)) }
            .catchOn(serial) { (error: any Error) in result.put((error as? ChainError)?.code ?? -1) }
        return try clock.fire(thenTake: result, "AY chain") {
            root.resolve(rejecting ? ChainError(code: Scenario.errorCode) : 0)
        }
    }

    func all(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let n = inputs.size
        let deferreds = (0..<n).map { _ in AYPromise.pending() }
        let result = Handoff<Int>()
        AYPromise.all(deferreds.map(\.promise)).thenOn(serial) { (values: PromiseValue) in
            let list = (values as? [PromiseValue] ?? []).map(int)
            result.put(list.enumerated().allSatisfy { $0.offset == $0.element } && list.count == n ? n : -1)
        }
        return try clock.fire(thenTake: result, "AY all") {
            for index in inputs.order { deferreds[index].resolve(index) }
        }
    }

    func first(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let deferreds = (0..<inputs.size).map { _ in AYPromise.pending() }
        let result = Handoff<Int>()
        AYPromise.race(deferreds.map(\.promise)).thenOn(serial) { (value: PromiseValue) in result.put(int(value)) }
        return try clock.fire(thenTake: result, "AY first") { deferreds[inputs.winner].resolve(inputs.winner) }
    }

    func workflow(_ inputs: Inputs) throws -> Int {
        let serial = self.serial
        return try inTurn(inputs, "AY workflow") { sum, user in
            call { user }
                .thenOn(serial) { (user: PromiseValue) -> PromiseValue in call { Services.contacts(of: int(user)) } }
                .thenOn(serial) { (contacts: PromiseValue) -> PromiseValue in
                    AYPromise.all(
                        (contacts as? [Int] ?? []).map { contact in call { Services.avatarSize(of: contact) } })
                }
                .thenOn(serial) { (sizes: PromiseValue) in
                    int(sum) + (sizes as? [PromiseValue] ?? []).map(int).reduce(0, +)
                }
        }
    }

    func checkout(_ inputs: Inputs) throws -> Int {
        let serial = self.serial
        return try inTurn(inputs, "AY checkout") { sum, order in
            call { order }
                .thenOn(serial) { (order: PromiseValue) -> PromiseValue in
                    call { () throws -> Int in
                        if Services.paymentFails(order: int(order)) { throw Services.PaymentDeclined() }
                        return int(order)
                    }
                }
                .thenOn(serial) { (paid: PromiseValue) -> PromiseValue in call { int(paid) } }
                .thenOn(serial) { int(sum) + Services.paidScore }
                // AY's catch recovers: its return value fulfils the promise.
                .catchOn(serial) { int(sum) + Services.declinedScore }
        }
    }

    func holdPending(count: Int, meter: AllocationMeter) throws -> () throws -> Void {
        let serial = self.serial
        return pendingPromises(count: count, meter: meter, "AY pending") { done in
            let deferred = AYPromise.pending()
            return (deferred, deferred.promise.thenOn(serial) { (value: PromiseValue) in done.tick(int(value)) })
        } settle: { deferred, _ in
            deferred.resolve(1)
        }
    }

    /// A simulated service call: AY's `asyncWith`, which runs the block on a global queue.
    private func call<T: Sendable>(_ answer: @escaping @Sendable () throws -> T) -> AYPromise {
        AYPromise.asyncWith(answer)
    }

    /// The workflows' shape: one step per input, each begun once the one before has ended, on the
    /// sum so far; returns the last sum.
    private func inTurn(
        _ inputs: Inputs, _ what: String, _ step: @escaping @Sendable (_ sum: PromiseValue, _ input: Int) -> AYPromise
    ) throws -> Int {
        let serial = self.serial
        var total = AYPromise.resolve(0)
        for input in 0..<inputs.size {
            total = total.thenOn(serial) { (sum: PromiseValue) -> PromiseValue in step(sum, input) }
        }
        let result = Handoff<Int>()
        total.thenOn(serial) { (value: PromiseValue) in result.put(int(value)) }
            .catchOn(serial) { (_: any Error) in result.put(-1) }
        return try result.take(what)
    }
}

/// The `Int` inside an untyped promise value (`-1` when it is something else, so the checksum fails).
func int(_ value: PromiseValue) -> Int { value as? Int ?? -1 }

extension AYAdapter: ContendingDesign {
    static var contender: any Contender { AYContender() }
}
