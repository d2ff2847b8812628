import CompareKit
import Dispatch
import NIOCore
import NIOPosix
import PromiseCosts

/// A production peer: SwiftNIO's `EventLoopFuture` / `EventLoopPromise`, the future most Swift
/// server code uses.
///
/// Futures are wired up on their event loop (`submit`), as NIO code does; one loop plays the serial
/// queue, a two-thread group the concurrent queue, and another loop the I/O service. NIO has no
/// race operator and no cancellation, so `first` and `cancel` are not run.
final class NIOContender: Contender {
    let info = ContenderInfo(
        name: "NIO", kind: .peer,
        summary:
            "SwiftNIO `EventLoopFuture`: one event loop as the serial queue, a 2-thread group as the concurrent one")

    private let serialGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let concurrentGroup = MultiThreadedEventLoopGroup(numberOfThreads: 2)
    private let ioGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private var loop: any EventLoop { serialGroup.next() }

    func single(_ inputs: Inputs, blocks: Int) throws -> Int {
        let loop = self.loop
        let done = Countdown(inputs.size)
        for _ in 0..<inputs.size {
            var future = loop.makeSucceededFuture(1)
            for _ in 0..<blocks { future = future.map { $0 + 1 } }
            future.whenSuccess { done.tick($0) }
        }
        return try done.sum("NIO single")
    }

    func concurrent(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let done = Countdown(inputs.size)
        let promises = (0..<inputs.size).map { _ in concurrentGroup.next().makePromise(of: Int.self) }
        try submitAndWait(on: concurrentGroup.next()) {
            for promise in promises { promise.futureResult.whenSuccess { done.tick($0 * 2) } }
        }
        return try clock.fire(thenSum: done, "NIO concurrent") {
            for (index, promise) in promises.enumerated() { promise.succeed(index) }
        }
    }

    func fanOut(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let n = inputs.size
        let loop = self.loop
        let done = Countdown(n)
        let root = loop.makePromise(of: Int.self)
        try submitAndWait(on: loop) {
            for _ in 0..<n { root.futureResult.map { $0 }.whenSuccess { done.tick($0) } }
        }
        return try clock.fire(thenSum: done, "NIO fan-out") { root.succeed(1) }
    }

    /// `chain` (the root succeeds) and `errors` (it fails and every link is skipped).
    func chain(_ inputs: Inputs, _ clock: PhaseClock, rejecting: Bool) throws -> Int {
        let n = inputs.size
        let loop = self.loop
        let root = loop.makePromise(of: Int.self)
        let result = Handoff<Int>()
        try submitAndWait(on: loop) {
            var future = root.futureResult
            for _ in 0..<n { future = future.map { $0 + 1 } }
            future.whenComplete { outcome in
                switch outcome {
                case .success(let value): result.put(value)
                case .failure(let error): result.put((error as? ChainError)?.code ?? -1)
                }
            }
        }
        return try clock.fire(thenTake: result, "NIO chain") {
            if rejecting { root.fail(ChainError(code: Scenario.errorCode)) } else { root.succeed(0) }
        }
    }

    func all(_ inputs: Inputs, _ clock: PhaseClock) throws -> Int {
        let n = inputs.size
        let loop = self.loop
        let promises = (0..<n).map { _ in loop.makePromise(of: Int.self) }
        let result = Handoff<Int>()
        try submitAndWait(on: loop) {
            EventLoopFuture.whenAllSucceed(promises.map(\.futureResult), on: loop).whenSuccess { values in
                result.put(values.enumerated().allSatisfy { $0.offset == $0.element } ? n : -1)
            }
        }
        return try clock.fire(thenTake: result, "NIO all") {
            for index in inputs.order { promises[index].succeed(index) }
        }
    }

    func workflow(_ inputs: Inputs) throws -> Int {
        let loop = self.loop
        let io = ioGroup.next()
        return try inTurn(inputs) { sum, user in
            Self.call(io, back: loop) { user }
                .flatMap { user in Self.call(io, back: loop) { Services.contacts(of: user) } }
                .flatMap { contacts in
                    EventLoopFuture.whenAllSucceed(
                        contacts.map { contact in Self.call(io, back: loop) { Services.avatarSize(of: contact) } },
                        on: loop)
                }
                .map { sum + $0.reduce(0, +) }
        }
    }

    func checkout(_ inputs: Inputs) throws -> Int {
        let loop = self.loop
        let io = ioGroup.next()
        return try inTurn(inputs) { sum, order in
            Self.call(io, back: loop) { order }
                .flatMapThrowing { order -> Int in
                    if Services.paymentFails(order: order) { throw Services.PaymentDeclined() }
                    return order
                }
                .flatMap { paid in Self.call(io, back: loop) { paid } }
                .map { _ in sum + Services.paidScore }
                .recover { _ in sum + Services.declinedScore }
        }
    }

    /// The workflows' shape: one step per input, each begun once the one before has ended, on the
    /// sum so far, all wired on the event loop; returns the last sum.
    private func inTurn(
        _ inputs: Inputs, _ step: @escaping @Sendable (_ sum: Int, _ input: Int) -> EventLoopFuture<Int>
    ) throws -> Int {
        let n = inputs.size
        let loop = self.loop
        let total = try submitAndWait(on: loop) { () -> EventLoopFuture<Int> in
            var total = loop.makeSucceededFuture(0)
            for input in 0..<n { total = total.flatMap { sum in step(sum, input) } }
            return total
        }
        return try total.wait()
    }

    func holdPending(count: Int, meter: AllocationMeter) throws -> () throws -> Void {
        let loop = self.loop
        let done = Countdown(count)
        var promises: [EventLoopPromise<Int>] = []
        promises.reserveCapacity(count)
        // Built on the loop, as NIO code does; the meter counts allocations on every thread.
        try meter.measure {
            try submitAndWait(on: loop) { [count] () -> [EventLoopPromise<Int>] in
                var made: [EventLoopPromise<Int>] = []
                made.reserveCapacity(count)
                for _ in 0..<count {
                    let promise = loop.makePromise(of: Int.self)
                    promise.futureResult.map { $0 }.whenSuccess { done.tick($0) }
                    made.append(promise)
                }
                return made
            }.forEach { promises.append($0) }
        }
        return { [promises] in
            for promise in promises { promise.succeed(1) }
            _ = try done.sum("NIO pending")
        }
    }

    /// Runs `body` on `loop` and waits for it (bounded by the run's wait limit).
    @discardableResult
    private func submitAndWait<T: Sendable>(on loop: any EventLoop, _ body: @escaping @Sendable () -> T) throws -> T {
        let result = Handoff<T>()
        loop.execute { result.put(body()) }
        return try result.take("NIO event loop")
    }

    /// A simulated service call: the answer computed on the I/O loop, delivered back on `back`.
    private static func call<T: Sendable>(
        _ io: any EventLoop,
        back: any EventLoop,
        _ answer: @escaping @Sendable () -> T
    ) -> EventLoopFuture<T> {
        io.submit(answer).hop(to: back)
    }
}
