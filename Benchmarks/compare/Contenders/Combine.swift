import CompareKit
import Dispatch
import OpenCombine
import OpenCombineDispatch
import PromiseCosts

/// The Combine peer: `Future`, Combine's one promise type, through OpenCombine (the Combine API
/// on Linux), written the way Combine code is.
///
/// A `Future` runs its closure at once and keeps its value for every later subscriber, so a
/// pending promise is a `Future` whose `promise` closure is kept (``pending(_:)``). Work is moved
/// to a queue with `receive(on:)` (OpenCombineDispatch's scheduler), and operators after it run
/// in that same callback: two or three chained blocks are one hop, as a Combine user writes them.
/// OpenCombine has no `MergeMany`: merging many futures is `sequence.publisher.flatMap`, its
/// equivalent. A promise chain built in a loop is a `Future` per link fed by a `sink` on the previous one
/// (``link(_:on:_:keeping:)``); the operator form (`map` on a type-erased publisher, 100,000
/// deep) subscribes recursively and overflows the stack. Every `sink`'s `AnyCancellable` is kept
/// until the run ends: Combine cancels a subscription whose `AnyCancellable` is dropped.
///
/// Where that is not the work the promises do, it is Combine's own way: two or three chained
/// blocks are one hop, as said; `all` merges and collects on the settling thread and hops once
/// (the promises' `all` observes each input on its queue); and a pending `Future` is kept with its
/// `promise` closure captured in a box, one of its allocations.
///
/// The workflows' service calls settle their `Future`s on the serial queue (``call(_:)``), and the
/// workflows are subscribed there, so OpenCombine's objects are only touched from one queue.
///
/// Combine cancels: `cancel` is a 1,000-step `flatMap` over `Future`s cancelled through its
/// `AnyCancellable`, on the queue the steps run on (OpenCombine's `flatMap` cannot be cancelled
/// from another thread safely); cancelling is synchronous there (the subscription is torn down
/// inside `cancel()`, which calls `handleEvents(receiveCancel:)` on the way), so its latency is one
/// hop and the call.
struct CombineContender: Contender {
    let info = ContenderInfo(
        name: "Combine", kind: .peer,
        summary:
            "OpenCombine's `Future` (the Combine API on Linux): `receive(on:)` a dispatch queue, `sink`, `flatMap`, `collect`, `first`"
    )

    private let serial = DispatchQueue(label: "compare.combine.serial")
    /// `concurrent`'s queues: `receive(on:)` needs a serial scheduler (it schedules a value and
    /// the completion after it as two blocks, which a concurrent queue may run in either order,
    /// and a `sink` told "finished" first drops the value: the first try lost callbacks). So the
    /// work goes to two serial queues on one concurrent queue, in turn, as NIO's contender spreads
    /// it over a two-thread event-loop group.
    private let concurrentLanes: [DispatchQueue]
    private let io = DispatchQueue(label: "compare.combine.io", attributes: .concurrent)

    init() {
        let concurrent = DispatchQueue(label: "compare.combine.concurrent", attributes: .concurrent)
        concurrentLanes = (0..<2).map { DispatchQueue(label: "compare.combine.concurrent.\($0)", target: concurrent) }
    }

    func single(_ inputs: Inputs, blocks: Int) throws -> Int {
        let serial = self.serial.ocombine
        let done = Countdown(inputs.size)
        var subscriptions: [AnyCancellable] = []
        subscriptions.reserveCapacity(inputs.size)
        for _ in 0..<inputs.size {
            let future = Future<Int, Never> { $0(.success(1)) }.receive(on: serial)
            switch blocks {
            case 1:
                future.sink { done.tick($0 + 1) }.store(in: &subscriptions)
            case 2:
                future.map { $0 + 1 }.sink { done.tick($0 + 1) }.store(in: &subscriptions)
            default:
                future.map { $0 + 1 }.map { $0 + 1 }.sink { done.tick($0 + 1) }.store(in: &subscriptions)
            }
        }
        return try withExtendedLifetime(subscriptions) { try done.sum("Combine single") }
    }

    func concurrent(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let done = Countdown(inputs.size)
        let pendings = (0..<inputs.size).map { _ in pending(Int.self) }
        var subscriptions: [AnyCancellable] = []
        subscriptions.reserveCapacity(inputs.size)
        for (index, (future, _)) in pendings.enumerated() {
            future.receive(on: concurrentLanes[index % concurrentLanes.count].ocombine)
                .sink(receiveCompletion: { _ in }) { done.tick($0 * 2) }
                .store(in: &subscriptions)
        }
        clock.markBuilt()
        for (index, (_, promise)) in pendings.enumerated() { promise(.success(index)) }
        return try withExtendedLifetime(subscriptions) { try done.sum("Combine concurrent") }
    }

    func fanOut(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let done = Countdown(inputs.size)
        let (root, fulfil) = pending(Int.self)
        var subscriptions: [AnyCancellable] = []
        subscriptions.reserveCapacity(inputs.size)
        for _ in 0..<inputs.size {
            root.receive(on: serial.ocombine).sink(receiveCompletion: { _ in }) { done.tick($0) }
                .store(in: &subscriptions)
        }
        clock.markBuilt()
        fulfil(.success(1))
        return try withExtendedLifetime(subscriptions) { try done.sum("Combine fan-out") }
    }

    /// `chain` (the root fulfils) and `errors` (it fails and every link passes the failure on).
    func chain(_ inputs: Inputs, _ clock: PhaseClock, rejecting: Bool) throws -> Int {
        let (root, settle) = pending(Int.self)
        var subscriptions: [AnyCancellable] = []
        subscriptions.reserveCapacity(inputs.size + 1)
        var last = root
        for _ in 0..<inputs.size { last = link(last, on: serial, { $0 + 1 }, keeping: &subscriptions) }
        let result = Handoff<Int>()
        last.receive(on: serial.ocombine)
            .sink(
                receiveCompletion: { completion in
                    if case .failure(let error) = completion { result.put((error as? ChainError)?.code ?? -1) }
                },
                receiveValue: { result.put($0) }
            )
            .store(in: &subscriptions)
        clock.markBuilt()
        settle(rejecting ? .failure(ChainError(code: Scenario.errorCode)) : .success(0))
        return try withExtendedLifetime(subscriptions) { try result.take("Combine chain") }
    }

    func all(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let n = inputs.size
        let pendings = (0..<n).map { _ in pending(Int.self) }
        let result = Handoff<Int>()
        // Combine has no `all` that keeps input order: merging delivers in settling order, so
        // each value carries its index and the collected pairs are put back in order.
        let subscription = pendings.enumerated().publisher
            .flatMap { index, pending in pending.future.map { (index: index, value: $0) } }
            .collect()
            .receive(on: serial.ocombine)
            .sink(receiveCompletion: { _ in }) { pairs in
                guard pairs.count == n else { return result.put(-1) }
                var values = [Int](repeating: -1, count: n)
                for pair in pairs { values[pair.index] = pair.value }
                result.put(values.enumerated().allSatisfy { $0.offset == $0.element } ? n : -1)
            }
        clock.markBuilt()
        for index in inputs.order { pendings[index].promise(.success(index)) }
        return try withExtendedLifetime(subscription) { try result.take("Combine all") }
    }

    func first(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let pendings = (0..<inputs.size).map { _ in pending(Int.self) }
        let result = Handoff<Int>()
        let subscription = pendings.publisher
            .flatMap(\.future)
            .first()
            .receive(on: serial.ocombine)
            .sink(receiveCompletion: { _ in }) { result.put($0) }
        clock.markBuilt()
        pendings[inputs.winner].promise(.success(inputs.winner))
        return try withExtendedLifetime(subscription) { try result.take("Combine first") }
    }

    func workflow(_ inputs: Inputs) throws -> Int {
        try inTurn(inputs, "Combine workflow") { sum, user in
            call { user }
                .flatMap { user in call { Services.contacts(of: user) } }
                .flatMap { contacts in
                    contacts.publisher.flatMap { contact in call { Services.avatarSize(of: contact) } }.collect()
                }
                .map { sizes in sum + sizes.reduce(0, +) }
        }
    }

    func checkout(_ inputs: Inputs) throws -> Int {
        try inTurn(inputs, "Combine checkout") { sum, order in
            call { order }
                .flatMap { order in
                    failableCall { () throws -> Int in
                        if Services.paymentFails(order: order) { throw Services.PaymentDeclined() }
                        return order
                    }
                }
                .flatMap { paid in failableCall { paid } }
                .map { _ in sum + Services.paidScore }
                .catch { _ in Just(sum + Services.declinedScore) }
        }
    }

    func cancel(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let serial = self.serial.ocombine
        let midway = Midway()
        let stepsRun = AtomicCounter()
        let finished = Handoff<Bool>()
        let subscription = (0..<Scenario.cancelSteps).publisher
            .flatMap(maxPublishers: .max(1)) { step in
                Future<Int, Never> { promise in
                    serial.schedule {
                        stepsRun.increment()
                        if step == Scenario.cancelAt { midway.reached() }
                        promise(.success(step))
                    }
                }
            }
            .handleEvents(receiveCancel: { finished.put(true) })
            .sink(receiveCompletion: { _ in finished.put(false) }, receiveValue: { _ in })
        try midway.cancel("Combine cancel") {
            clock.restart()
            // On the queue its steps run on: OpenCombine's `flatMap` reads its upstream
            // subscription without a lock when it asks for the next step, so a `cancel()` from
            // another thread races with it (Apple's Combine allows it).
            serial.schedule { subscription.cancel() }
        }
        return clock.cancellation(cancelled: try finished.take("Combine cancel"), stepsRun: stepsRun.count)
    }

    func holdPending(count: Int, meter: AllocationMeter) throws -> () throws -> Void {
        let serial = self.serial.ocombine
        return pendingPromises(count: count, meter: meter, "Combine pending") { done in
            let (future, promise) = pending(Int.self)
            return (promise, future.receive(on: serial).sink(receiveCompletion: { _ in }) { done.tick($0) })
        } settle: { promise, _ in
            promise(.success(1))
        }
    }

    // MARK: Shapes

    /// A pending `Future` and the closure that settles it. The `Future` calls its closure inside
    /// `init`, so the `promise` is at hand when `init` returns.
    private func pending<Output>(
        _: Output.Type
    ) -> (future: Future<Output, any Error>, promise: Future<Output, any Error>.Promise) {
        var promise: Future<Output, any Error>.Promise?
        let future = Future<Output, any Error> { promise = $0 }
        guard let promise else { preconditionFailure("Future did not call its closure in init") }
        return (future, promise)
    }

    /// `then` with Combine's promise: a new `Future` settled on `queue` by a `sink` on `previous`,
    /// with `transform`'s value or `previous`'s failure. The `sink`'s `AnyCancellable` goes to
    /// `subscriptions`.
    private func link(
        _ previous: Future<Int, any Error>,
        on queue: DispatchQueue,
        _ transform: @escaping (Int) -> Int,
        keeping subscriptions: inout [AnyCancellable]
    ) -> Future<Int, any Error> {
        let (next, settle) = pending(Int.self)
        previous.receive(on: queue.ocombine)
            .sink(
                receiveCompletion: { completion in
                    if case .failure(let error) = completion { settle(.failure(error)) }
                },
                receiveValue: { settle(.success(transform($0))) }
            )
            .store(in: &subscriptions)
        return next
    }

    /// A simulated service call: its work runs on the I/O queue and its `Future` is settled on the
    /// serial queue, as a service that answers on its caller's queue does: two hops, as raw GCD's
    /// workflow makes.
    ///
    /// Settled there, not from the I/O queue followed by `receive(on:)`: OpenCombine's `Future`
    /// reads its result without its lock when a subscriber asks for it, so a `Future` settled on
    /// one thread while it is subscribed on another is a data race (Apple's `Future` is safe).
    private func call<T>(_ answer: @escaping () -> T) -> Future<T, Never> {
        let (io, serial) = (self.io.ocombine, self.serial.ocombine)
        return Future { promise in
            io.schedule {
                let value = answer()
                serial.schedule { promise(.success(value)) }
            }
        }
    }

    /// A simulated service call that can fail, settled the same way.
    private func failableCall<T>(_ answer: @escaping () throws -> T) -> Future<T, any Error> {
        let (io, serial) = (self.io.ocombine, self.serial.ocombine)
        return Future { promise in
            io.schedule {
                let result = Result { try answer() }
                serial.schedule { promise(result) }
            }
        }
    }

    /// The workflows' shape: one step per input, each begun once the one before has ended, on the
    /// sum so far; returns the last sum. It subscribes on the serial queue, where every `Future` of
    /// the workflows settles, so that OpenCombine's objects are only ever touched from that queue.
    private func inTurn<Step: Publisher<Int, Never>>(
        _ inputs: Inputs, _ what: String, _ step: @escaping (_ sum: Int, _ input: Int) -> Step
    ) throws -> Int {
        var total = Just(0).eraseToAnyPublisher()
        for input in 0..<inputs.size { total = total.flatMap { sum in step(sum, input) }.eraseToAnyPublisher() }
        let result = Handoff<Int>()
        let subscription = total.subscribe(on: serial.ocombine).sink { result.put($0) }
        return try withExtendedLifetime(subscription) { try result.take(what) }
    }
}
