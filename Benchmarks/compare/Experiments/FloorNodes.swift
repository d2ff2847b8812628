import CompareKit
import Dispatch
import Foundation
import PromiseRuntime

// The floor experiment's last variant (FBLFloor.swift): FBL's contract, with observers that cost
// no allocation. `Floor` allocates four times per chain link: the promise, its observer closure,
// and GCD's closure and block for the callback. The observer closure needs a context because it
// captures three values (the queue, the block, the next promise); a closure that captures a single
// native object uses that object as its context and allocates nothing. Here the promise a `then`
// returns holds its queue and block as fields, so its observer captures only that promise, and a
// link allocates three times.
//
// It keeps the contract's memory behaviour too: an observer closure is freed once it has run, and
// with it the block and everything the block captures, so a promise kept by an object that its own
// block captures is not a reference cycle. Here the one callback takes the block out under the
// promise's lock before running it (the lock costs nothing measurable: Reports/performance.md). It
// leaves out adoption (not exercised by a chain of `Int`s; the type check that decides it is kept).
//
// FBL does not do this yet: the promise a `then` returns would be a subclass of the promise (see
// Reports/performance.md).

/// An observer: a closure that captures only the promise it settles (see above).
struct NodeObserver<Input: Sendable>: Sendable {
    let receive: @Sendable (Result<Input, any Error>) -> Void
}

/// A promise whose `then` returns a promise that observes: the floor's contract (group,
/// asynchronous callbacks, first settle wins, checks decided by the value's type).
///
/// `@unchecked Sendable`: `state` is guarded by its own lock, and a subclass adds its queue (a `let`)
/// and its block, guarded by that same lock. Not final, so that the promise a `then` returns can
/// hold its queue and block (`MapNode`).
class NodePromise<Value: Sendable>: @unchecked Sendable {
    struct State {
        var result: Result<Value, any Error>?
        var first: NodeObserver<Value>?
        var rest: [NodeObserver<Value>] = []
    }

    /// Guards the outcome and the observers.
    let state: PromiseMutex<State>

    init() {
        state = PromiseMutex(State())
        floorGroup.enter()
    }

    init(_ value: Value) {
        state = PromiseMutex(State(result: .success(value)))
    }

    final func settle(_ result: Result<Value, any Error>) {
        let taken: State? = state.withLock { state in
            guard state.result == nil else { return nil }
            defer { state = State(result: result) }
            return state
        }
        guard let taken else { return }
        if let first = taken.first {
            first.receive(result)
            for observer in taken.rest { observer.receive(result) }
        }
        floorGroup.leave()
    }

    /// The resolution procedure for a value of `Value` itself (the floor's: decided by the type).
    final func resolve(_ value: Value) {
        if type(of: value) == Value.self, !(Value.self is NSError.Type), !(Value.self is AnyObject.Type) {
            return settle(.success(value))
        }
        if let error = value as? NSError { return settle(.failure(error)) }
        settle(.success(value))
    }

    final func observe(_ observer: NodeObserver<Value>) {
        let now: Result<Value, any Error>? = state.withLock { state in
            if let result = state.result { return result }
            if state.first == nil {
                state.first = observer
            } else {
                state.rest.append(observer)
            }
            return nil
        }
        if let now { observer.receive(now) }
    }

    @discardableResult
    final func then<Next: Sendable>(
        on queue: DispatchQueue, _ work: @escaping @Sendable (Value) -> Next
    ) -> NodePromise<Next> {
        let next = MapNode(queue: queue, work: work)
        observe(NodeObserver { result in next.receive(result) })
        return next
    }

    @discardableResult
    final func `catch`(
        on queue: DispatchQueue, _ handler: @escaping @Sendable (any Error) -> Void
    ) -> NodePromise<Value> {
        let next = CatchNode<Value>(queue: queue, handler: handler)
        observe(NodeObserver { result in next.receive(result) })
        return next
    }
}

/// The promise of a `then`, observing the promise before it. (`@unchecked`: `work` is guarded by
/// `state`'s lock; see `NodePromise`.)
final class MapNode<Input: Sendable, Output: Sendable>: NodePromise<Output>, @unchecked Sendable {
    let queue: DispatchQueue
    /// Guarded by `state`'s lock: taken out (and so freed once run) by the one callback.
    var work: (@Sendable (Input) -> Output)?

    init(queue: DispatchQueue, work: @escaping @Sendable (Input) -> Output) {
        self.queue = queue
        self.work = work
        super.init()
    }

    func receive(_ result: Result<Input, any Error>) {
        queue.async(group: floorGroup) {
            let work = self.state.withLock { _ in
                defer { self.work = nil }
                return self.work
            }
            switch result {
            case .success(let value): if let work { self.resolve(work(value)) }
            case .failure(let error): self.settle(.failure(error))
            }
        }
    }
}

/// The promise of a `catch`, observing the promise before it. (`@unchecked`: `handler` is guarded
/// by `state`'s lock; see `NodePromise`.)
final class CatchNode<Value: Sendable>: NodePromise<Value>, @unchecked Sendable {
    let queue: DispatchQueue
    /// Guarded by `state`'s lock: taken out (and so freed once run) by the one callback.
    var handler: (@Sendable (any Error) -> Void)?

    init(queue: DispatchQueue, handler: @escaping @Sendable (any Error) -> Void) {
        self.queue = queue
        self.handler = handler
        super.init()
    }

    func receive(_ result: Result<Value, any Error>) {
        queue.async(group: floorGroup) {
            let handler = self.state.withLock { _ in
                defer { self.handler = nil }
                return self.handler
            }
            switch result {
            case .success(let value): self.resolve(value)
            case .failure(let error):
                handler?(error)
                self.settle(.failure(error))
            }
        }
    }
}

/// The scenarios for the node variant (the same as `FloorRunner`'s).
enum NodeRunner {
    typealias Promise = NodePromise<Int>

    static func scenarios(_ queues: FloorQueues) -> [Scenario: ScenarioRun] {
        [
            .single: { inputs, _ in try single(inputs, queues, blocks: 1) },
            .single2: { inputs, _ in try single(inputs, queues, blocks: 2) },
            .single3: { inputs, _ in try single(inputs, queues, blocks: 3) },
            .fanOut: { inputs, clock in try fanOut(inputs, clock, queues) },
            .chain: { inputs, clock in try chain(inputs, clock, queues, rejecting: false) },
            .errors: { inputs, clock in try chain(inputs, clock, queues, rejecting: true) },
        ]
    }

    private static func single(_ inputs: Inputs, _ queues: FloorQueues, blocks: Int) throws -> Int {
        let serial = queues.serial
        let done = Countdown(inputs.size)
        for _ in 0..<inputs.size {
            var promise = Promise(1)
            for _ in 0..<blocks - 1 { promise = promise.then(on: serial) { $0 + 1 } }
            promise.then(on: serial) { done.tick($0 + 1) }
        }
        return try done.sum("floor-nodes single")
    }

    private static func fanOut(_ inputs: Inputs, _ clock: PhaseClock, _ queues: FloorQueues) throws -> Int {
        let serial = queues.serial
        let done = Countdown(inputs.size)
        let root = Promise()
        for _ in 0..<inputs.size { root.then(on: serial) { done.tick($0) } }
        clock.markBuilt()
        root.resolve(1)
        return try done.sum("floor-nodes fan-out")
    }

    /// `chain` (the root fulfils) and `errors` (it rejects and every link is skipped).
    private static func chain(
        _ inputs: Inputs, _ clock: PhaseClock, _ queues: FloorQueues, rejecting: Bool
    ) throws -> Int {
        let serial = queues.serial
        let root = Promise()
        var last = root
        for _ in 0..<inputs.size { last = last.then(on: serial) { $0 + 1 } }
        let result = Handoff<Int>()
        last.then(on: serial) { result.put($0) }
            .catch(on: serial) { result.put(($0 as? ChainError)?.code ?? -1) }
        clock.markBuilt()
        if rejecting {
            root.settle(.failure(ChainError(code: Scenario.errorCode)))
        } else {
            root.resolve(0)
        }
        return try result.take("floor-nodes chain")
    }

    static func holdPending(count: Int, meter: AllocationMeter, _ queues: FloorQueues) throws -> () throws -> Void {
        let done = Countdown(count)
        let serial = queues.serial
        var roots: [Promise] = []
        var thens: [NodePromise<Void>] = []
        roots.reserveCapacity(count)
        thens.reserveCapacity(count)
        meter.measure {
            for _ in 0..<count {
                let root = Promise()
                roots.append(root)
                thens.append(root.then(on: serial) { done.tick($0) })
            }
        }
        return { [roots, thens] in
            withExtendedLifetime(thens) {
                for root in roots { root.resolve(1) }
            }
            _ = try done.sum("floor-nodes pending")
        }
    }
}
