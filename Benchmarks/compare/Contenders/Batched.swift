import BatchedPromises
import CompareKit
import DesignRegistry
import Dispatch
import PromiseCosts

/// The project's own design: typed `Promise<Value, Failure>`, whose callbacks join the running
/// drain of their queue. A link is `map` or `flatMap`, `all` and `first` are its `all` and
/// `race`, a pending promise is `makePending()`, and the workflows and the cancellation scenario
/// are chains of `flatMap`, as code written with it composes them.
struct BatchedContender: Contender, HasQueues {
    let info = ContenderInfo(
        name: "Batched", kind: .design,
        summary:
            "[BatchedPromises](../Implementations/BatchedPromises): typed `Promise<Value, Failure>`, callbacks in the running drain of their queue, one dispatch per batch"
    )
    let queues = ContenderQueues("batched")

    func single(_ inputs: Inputs, blocks: Int) throws -> Int {
        let serial = self.serial
        let done = Countdown(inputs.size)
        for _ in 0..<inputs.size {
            var promise = Promise<Int, Never>(value: 1)
            for _ in 0..<blocks - 1 { promise = promise.map(on: serial) { $0 + 1 } }
            promise.whenComplete(on: serial) { outcome in
                if case .fulfilled(let value) = outcome { done.tick(value + 1) } else { done.tick(-1) }
            }
        }
        return try done.sum("Batched single")
    }

    func concurrent(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let done = Countdown(inputs.size)
        let pendings = (0..<inputs.size).map { _ in Promise<Int, Never>.makePending() }
        for pending in pendings { pending.promise.then(on: concurrentQueue) { done.tick($0 * 2) } }
        return try clock.fire(thenSum: done, "Batched concurrent") {
            for (index, pending) in pendings.enumerated() { pending.resolver.fulfill(index) }
        }
    }

    func fanOut(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let done = Countdown(inputs.size)
        let (root, resolver) = Promise<Int, Never>.makePending()
        for _ in 0..<inputs.size { root.then(on: serial) { done.tick($0) } }
        return try clock.fire(thenSum: done, "Batched fan-out") { resolver.fulfill(1) }
    }

    func fairness(_ inputs: Inputs, on queue: DispatchQueue, _ clock: PhaseClock) throws -> Int {
        let (root, resolver) = Promise<Int, Never>.makePending()
        var last = root
        for _ in 0..<inputs.size { last = last.map(on: queue) { $0 + 1 } }
        let result = Handoff<Int>()
        last.whenComplete(on: queue) { outcome in
            if case .fulfilled(let value) = outcome { result.put(value) } else { result.put(-1) }
        }
        return try clock.fire(thenTake: result, "Batched fairness") { resolver.fulfill(0) }
    }

    /// `chain` (the root fulfils) and `errors` (it rejects and every link passes it on).
    func chain(_ inputs: Inputs, _ clock: PhaseClock, rejecting: Bool) throws -> Int {
        let serial = self.serial
        let (root, resolver) = Promise<Int, ChainError>.makePending()
        var last = root
        for _ in 0..<inputs.size { last = last.map(on: serial) { $0 + 1 } }
        let result = Handoff<Int>()
        last.whenComplete(on: serial) { outcome in
            switch outcome {
            case .fulfilled(let value): result.put(value)
            case .rejected(let error): result.put(error.code)
            case .cancelled: result.put(-1)
            }
        }
        return try clock.fire(thenTake: result, "Batched chain") {
            if rejecting { resolver.reject(ChainError(code: Scenario.errorCode)) } else { resolver.fulfill(0) }
        }
    }

    func all(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let n = inputs.size
        let pendings = (0..<n).map { _ in Promise<Int, Never>.makePending() }
        let result = Handoff<Int>()
        Promise.all(pendings.map(\.promise)).then(on: serial) { values in
            result.put(values.enumerated().allSatisfy { $0.offset == $0.element } ? n : -1)
        }
        return try clock.fire(thenTake: result, "Batched all") {
            for index in inputs.order { pendings[index].resolver.fulfill(index) }
        }
    }

    func first(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let pendings = (0..<inputs.size).map { _ in Promise<Int, Never>.makePending() }
        let result = Handoff<Int>()
        Promise.race(pendings.map(\.promise)).then(on: serial) { result.put($0) }
        return try clock.fire(thenTake: result, "Batched first") {
            pendings[inputs.winner].resolver.fulfill(inputs.winner)
        }
    }

    func workflow(_ inputs: Inputs) throws -> Int {
        let serial = self.serial
        return try inTurn(inputs, "Batched workflow") { sum, user in
            call { user }
                .flatMap(on: serial) { user in call { Services.contacts(of: user) } }
                .flatMap(on: serial) { contacts in
                    Promise.all(contacts.map { contact in call { Services.avatarSize(of: contact) } })
                }
                .map(on: serial) { sizes in sum + sizes.reduce(0, +) }
        }
    }

    func checkout(_ inputs: Inputs) throws -> Int {
        let serial = self.serial
        return try inTurn(inputs, "Batched checkout") { sum, order in
            call { order }
                .flatMap(on: serial) { order in
                    call { () throws(any Error) -> Int in
                        if Services.paymentFails(order: order) { throw Services.PaymentDeclined() }
                        return order
                    }
                }
                .flatMap(on: serial) { paid in call { paid } }
                .map(on: serial) { _ in sum + Services.paidScore }
                .recover(on: serial) { _ in sum + Services.declinedScore }
        }
    }

    func cancel(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let serial = self.serial
        let stepsRun = AtomicCounter()
        let midway = Midway()
        // A serial task: each step a hop onto the serial queue, as the GCD baseline's, the next one
        // started by the one before (`flatMap` of the step after). Each step's promise forwards to
        // the one the first `flatMap` returned, so cancelling that reaches the step under way at
        // once.
        @Sendable func steps(from step: Int) -> Promise<Int, any Error> {
            Promise(on: serial) {
                stepsRun.increment()
                if step == Scenario.cancelAt { midway.reached() }
                return step
            }
            .flatMap(on: serial) { done in
                done + 1 < Scenario.cancelSteps ? steps(from: done + 1) : Promise(value: done)
            }
        }
        let task = steps(from: 0)
        let finished = Handoff<Bool>()
        task.whenComplete(on: serial) { outcome in
            if case .cancelled = outcome { finished.put(true) } else { finished.put(false) }
        }
        try midway.cancel("Batched cancel") {
            clock.restart()
            task.cancel()
        }
        return clock.cancellation(cancelled: try finished.take("Batched cancel"), stepsRun: stepsRun.count)
    }

    func holdPending(count: Int, meter: AllocationMeter) throws -> () throws -> Void {
        let serial = self.serial
        return pendingPromises(count: count, meter: meter, "Batched pending") {
            done -> (Promise<Int, Never>.Resolver, Promise<Void, Never>) in
            let (root, resolver) = Promise<Int, Never>.makePending()
            return (resolver, root.map(on: serial) { done.tick($0) })
        } settle: { resolver, _ in
            resolver.fulfill(1)
        }
    }

    /// A simulated service call: the answer made on the I/O queue, observed back on the serial
    /// queue by the caller's `flatMap(on:)`.
    private func call<T: Sendable>(_ answer: @escaping @Sendable () throws(any Error) -> T) -> Promise<T, any Error> {
        Promise(on: io, answer)
    }

    /// The workflows' shape: one step per input, each begun once the one before has ended, on the
    /// sum so far; returns the last sum.
    private func inTurn<Failure: Error>(
        _ inputs: Inputs, _ what: String,
        _ step: @escaping @Sendable (_ sum: Int, _ input: Int) -> Promise<Int, Failure>
    ) throws -> Int {
        let serial = self.serial
        var total = Promise<Int, Failure>(value: 0)
        for input in 0..<inputs.size { total = total.flatMap(on: serial) { sum in step(sum, input) } }
        let result = Handoff<Int>()
        total.whenComplete(on: serial) { outcome in
            if case .fulfilled(let value) = outcome { result.put(value) } else { result.put(-1) }
        }
        return try result.take(what)
    }
}

extension BatchedAdapter: ContendingDesign {
    static var contender: any Contender { BatchedContender() }
}
