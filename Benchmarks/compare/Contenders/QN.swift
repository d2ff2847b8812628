import CompareKit
import DesignRegistry
import Dispatch
import PromiseCosts
import QNTasks

/// The QN design: lazily started, cancellable tasks. A link is a continuation (`map`: one task per
/// link), `all` and `first` are parallel tasks, a pending promise is a manual task, and the
/// workflows and the cancellation scenario are serial tasks, as QN code composes them.
struct QNContender: Contender, HasQueues {
    let info = ContenderInfo(
        name: "QN", kind: .design,
        summary:
            "[QNTasks](../Implementations/QNTasks): cancellable tasks; links are continuations (`map`), `all`/`first` parallel tasks, workflows serial tasks"
    )
    let queues = ContenderQueues("qn")

    func single(_ inputs: Inputs, blocks: Int) throws -> Int {
        let serial = self.serial
        let done = Countdown(inputs.size)
        for _ in 0..<inputs.size {
            var task: QNAsyncTask<Int> = QNAsyncBlockTask(queue: serial) { _ in 2 }
            for _ in 0..<blocks - 1 { task = task.map(on: serial) { $0 + 1 } }
            task.start(on: serial) { done.tick($0.value ?? -1) }
        }
        return try done.sum("QN single")
    }

    func concurrent(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let done = Countdown(inputs.size)
        let pendings = (0..<inputs.size).map { _ in QNAsyncManualTask<Int>() }
        for pending in pendings {
            pending.map(on: concurrentQueue) { $0 * 2 }.start(on: concurrentQueue) { done.tick($0.value ?? -1) }
        }
        return try clock.fire(thenSum: done, "QN concurrent") {
            for (index, pending) in pendings.enumerated() { pending.succeed(index) }
        }
    }

    func fanOut(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let done = Countdown(inputs.size)
        let root = QNAsyncManualTask<Int>()
        for _ in 0..<inputs.size { root.map(on: serial) { $0 }.start(on: serial) { done.tick($0.value ?? -1) } }
        return try clock.fire(thenSum: done, "QN fan-out") { root.succeed(1) }
    }

    /// `chain` (the root succeeds) and `errors` (it fails and every link is skipped).
    func chain(_ inputs: Inputs, _ clock: PhaseClock, rejecting: Bool) throws -> Int {
        let serial = self.serial
        let root = QNAsyncManualTask<Int>()
        var chain: QNAsyncTask<Int> = root
        for _ in 0..<inputs.size { chain = chain.map(on: serial) { $0 + 1 } }
        let result = Handoff<Int>()
        chain.start(on: serial) { outcome in
            switch outcome {
            case .succeeded(let value): result.put(value)
            case .failed(let error): result.put((error as? ChainError)?.code ?? -1)
            case .cancelled: result.put(-1)
            }
        }
        return try clock.fire(thenTake: result, "QN chain") {
            if rejecting { root.fail(ChainError(code: Scenario.errorCode)) } else { root.succeed(0) }
        }
    }

    func all(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let n = inputs.size
        let pendings = (0..<n).map { _ in QNAsyncManualTask<Int>() }
        let result = Handoff<Int>()
        QNAsyncParallelTask(all: pendings).start(on: serial) { outcome in
            let values = outcome.value ?? []
            result.put(values.enumerated().allSatisfy { $0.offset == $0.element } && values.count == n ? n : -1)
        }
        return try clock.fire(thenTake: result, "QN all") {
            for index in inputs.order { pendings[index].succeed(index) }
        }
    }

    func first(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let pendings = (0..<inputs.size).map { _ in QNAsyncManualTask<Int>() }
        let result = Handoff<Int>()
        QNAsyncParallelTask(firstSuccessOf: pendings).start(on: serial) { result.put($0.value ?? -1) }
        return try clock.fire(thenTake: result, "QN first") { pendings[inputs.winner].succeed(inputs.winner) }
    }

    func workflow(_ inputs: Inputs) throws -> Int {
        try inTurn(
            inputs, "QN workflow", step: { user in .required(workflow(user: user)) },
            resultGenerate: { $0.reduce(0) { $0 + ($1.result(as: Int.self) ?? -1_000_000) } })
    }

    func checkout(_ inputs: Inputs) throws -> Int {
        // Optional steps: a failed checkout must not stop the next one.
        try inTurn(
            inputs, "QN checkout", step: { order in .optional(checkout(order: order)) },
            resultGenerate: { states in
                states.reduce(0) { $0 + ($1.succeeded ? Services.paidScore : Services.declinedScore) }
            })
    }

    /// The workflows' shape: a serial task of one step per input, each begun once the one before
    /// has ended; returns its result.
    private func inTurn(
        _ inputs: Inputs, _ what: String, step: @escaping @Sendable (_ input: Int) -> QNAsyncSerialStep,
        resultGenerate: @escaping QNAsyncSerialTask<Int>.ResultGenerate
    ) throws -> Int {
        let steps = QNAsyncSerialTask<Int>(
            queue: serial,
            buildBlocks: (0..<inputs.size).map { input -> QNAsyncSerialTask<Int>.BuildBlock in { _ in step(input) } },
            resultGenerate: resultGenerate)
        return try wait(steps, what)
    }

    func cancel(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let serial = self.serial
        let stepsRun = AtomicCounter()
        let midway = Midway()
        let task = QNAsyncSerialTask<Int>(
            queue: serial,
            buildBlocks: (0..<Scenario.cancelSteps).map { step -> QNAsyncSerialTask<Int>.BuildBlock in
                { _ in
                    .required(
                        QNAsyncBlockTask(queue: io) { _ in
                            stepsRun.increment()
                            if step == Scenario.cancelAt { midway.reached() }
                            return step
                        })
                }
            },
            resultGenerate: lastInt
        )
        let finished = Handoff<Bool>()
        task.start(on: serial) { finished.put($0.isCancelled) }
        try midway.cancel("QN cancel") {
            clock.restart()
            task.cancel()
        }
        return clock.cancellation(cancelled: try finished.take("QN cancel"), stepsRun: stepsRun.count)
    }

    func holdPending(count: Int, meter: AllocationMeter) throws -> () throws -> Void {
        let serial = self.serial
        // A QN link starts (lazily) when started; it is started here, as a promise's `then` would
        // be, so it is waiting on the manual task.
        return pendingPromises(count: count, meter: meter, "QN pending", draining: serial) {
            done -> (QNAsyncManualTask<Int>, QNAsyncContinuationTask<Int, Int>) in
            let pending = QNAsyncManualTask<Int>()
            let next = pending.map(on: serial) { $0 }
            next.start(on: serial) { done.tick($0.value ?? -1) }
            return (pending, next)
        } settle: { pending, _ in
            pending.succeed(1)
        }
    }

    // MARK: Composition, as QN code writes it

    /// A simulated service call: a block task on the I/O queue.
    private func call<T: Sendable>(_ answer: @escaping @Sendable () throws -> T) -> QNAsyncBlockTask<T> {
        QNAsyncBlockTask(queue: io) { _ in try answer() }
    }

    /// Get the user, then the contacts, then every avatar in parallel; the result is the sum of sizes.
    func workflow(user: Int) -> QNAsyncSerialTask<Int> {
        QNAsyncSerialTask(
            queue: serial,
            buildBlocks: [
                { _ in .required(call { user }) },
                { found in .required(call { Services.contacts(of: found?.result(as: Int.self) ?? -1) }) },
                { contacts in
                    .required(
                        QNAsyncParallelTask(
                            all: (contacts?.result(as: [Int].self) ?? []).map { contact in
                                call { Services.avatarSize(of: contact) } as QNAsyncTask<Int>
                            }
                        ))
                },
            ],
            resultGenerate: { ($0.last?.result(as: [Int].self) ?? []).reduce(0, +) }
        )
    }

    /// Order, then pay (fails for one order in ten), then check.
    func checkout(order: Int) -> QNAsyncSerialTask<Int> {
        QNAsyncSerialTask(
            queue: serial,
            buildBlocks: [
                { _ in .required(call { order }) },
                { placed in
                    .required(
                        call { () throws -> Int in
                            let order = placed?.result(as: Int.self) ?? -1
                            if Services.paymentFails(order: order) { throw Services.PaymentDeclined() }
                            return order
                        })
                },
                { paid in .required(call { paid?.result(as: Int.self) ?? -1 }) },
            ],
            resultGenerate: lastInt
        )
    }

    private func wait(_ task: QNAsyncTask<Int>, _ what: String) throws -> Int {
        let result = Handoff<Int>()
        task.start(on: serial) { result.put($0.value ?? -1) }
        return try result.take(what)
    }
}

/// The last sub-state's `Int` result, the usual `resultGenerate` of a chain.
@Sendable private func lastInt(_ states: [QNAsyncSerialTaskSubState]) -> Int {
    states.last?.result(as: Int.self) ?? -1
}

extension QNAdapter: ContendingDesign {
    static var contender: any Contender { QNContender() }
}
