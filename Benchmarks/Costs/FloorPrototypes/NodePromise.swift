public import Dispatch
public import Foundation
public import PromiseRuntime

// FBL's contract, stripped to what a chain of `Int`s needs, with observers that cost no allocation
// (the floor experiments before it, in HISTORY.md, allocated four times per chain link: the
// promise, its observer closure, and GCD's closure and block for the callback). The observer closure needs a context because it
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
// FBL's `then` does the same (`FBLChainedPromise`), keeping the rest of FBL's contract.

/// The process-wide group of the floor promises (FBL's `dispatchGroup`).
public let floorGroup = DispatchGroup()

/// An observer: a closure that captures only the promise it settles (see above).
@usableFromInline
struct NodeObserver<Input: Sendable>: Sendable {
    @usableFromInline let receive: @Sendable (Result<Input, any Error>) -> Void

    @inlinable init(receive: @escaping @Sendable (Result<Input, any Error>) -> Void) { self.receive = receive }
}

/// A promise whose `then` returns a promise that observes: the floor's contract (group,
/// asynchronous callbacks, first settle wins, checks decided by the value's type).
///
/// `@unchecked Sendable`: `state` is guarded by its own lock, and a subclass adds its queue (a `let`)
/// and its block, guarded by that same lock. Not final, so that the promise a `then` returns can
/// hold its queue and block (`MapNode`).
public class NodePromise<Value: Sendable>: @unchecked Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var result: Result<Value, any Error>?
        @usableFromInline var first: NodeObserver<Value>?
        @usableFromInline var rest: [NodeObserver<Value>] = []

        @inlinable init(result: Result<Value, any Error>? = nil) { self.result = result }
    }

    /// Guards the outcome and the observers.
    @usableFromInline let state: PromiseMutex<State>

    @inlinable public init() {
        state = PromiseMutex(State())
        floorGroup.enter()
    }

    @inlinable public init(_ value: Value) {
        state = PromiseMutex(State(result: .success(value)))
    }

    @inlinable public final func settle(_ result: Result<Value, any Error>) {
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
    @inlinable public final func resolve(_ value: Value) {
        if type(of: value) == Value.self, !(Value.self is NSError.Type), !(Value.self is AnyObject.Type) {
            return settle(.success(value))
        }
        if let error = value as? NSError { return settle(.failure(error)) }
        settle(.success(value))
    }

    @inlinable final func observe(_ observer: NodeObserver<Value>) {
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

    @inlinable @discardableResult
    public final func then<Next: Sendable>(
        on queue: DispatchQueue, _ work: @escaping @Sendable (Value) -> Next
    ) -> NodePromise<Next> {
        let next = MapNode(queue: queue, work: work)
        observe(NodeObserver { result in next.receive(result) })
        return next
    }

    @inlinable @discardableResult
    public final func `catch`(
        on queue: DispatchQueue, _ handler: @escaping @Sendable (any Error) -> Void
    ) -> NodePromise<Value> {
        let next = CatchNode<Value>(queue: queue, handler: handler)
        observe(NodeObserver { result in next.receive(result) })
        return next
    }
}

/// The promise of a `then`, observing the promise before it. (`@unchecked`: `work` is guarded by
/// `state`'s lock; see `NodePromise`.)
@usableFromInline
final class MapNode<Input: Sendable, Output: Sendable>: NodePromise<Output>, @unchecked Sendable {
    @usableFromInline let queue: DispatchQueue
    /// Guarded by `state`'s lock: taken out (and so freed once run) by the one callback.
    @usableFromInline var work: (@Sendable (Input) -> Output)?

    @inlinable init(queue: DispatchQueue, work: @escaping @Sendable (Input) -> Output) {
        self.queue = queue
        self.work = work
        super.init()
    }

    @inlinable func receive(_ result: Result<Input, any Error>) {
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
@usableFromInline
final class CatchNode<Value: Sendable>: NodePromise<Value>, @unchecked Sendable {
    @usableFromInline let queue: DispatchQueue
    /// Guarded by `state`'s lock: taken out (and so freed once run) by the one callback.
    @usableFromInline var handler: (@Sendable (any Error) -> Void)?

    @inlinable init(queue: DispatchQueue, handler: @escaping @Sendable (any Error) -> Void) {
        self.queue = queue
        self.handler = handler
        super.init()
    }

    @inlinable func receive(_ result: Result<Value, any Error>) {
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
