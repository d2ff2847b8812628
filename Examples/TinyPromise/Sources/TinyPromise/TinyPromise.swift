import Dispatch
import Synchronization

// snippet: aplus-tiny-thenable
/// TinyPromise's own thenable shape: what its resolution procedure assimilates. Its `then` has
/// its own spelling, as an outside library's would; the suite's adapter bridges to it.
public protocol TinyThenable: Sendable {
    func then(
        onFulfilled: @escaping @Sendable ((any Sendable)?) -> Void,
        onRejected: @escaping @Sendable (any Error) -> Void
    ) throws
}
// end-snippet

// snippet: aplus-tiny-property-thenable
/// The `then` function of a ``TinyPropertyThenable``.
public typealias TinyThen =
    @Sendable (
        _ onFulfilled: @escaping @Sendable ((any Sendable)?) -> Void,
        _ onRejected: @escaping @Sendable (any Error) -> Void
    ) throws -> Void

/// A thenable whose `then` is a property, as JavaScript's is: TinyPromise reads it once, rejects
/// when the read throws, and fulfils with the object when it holds no function.
public protocol TinyPropertyThenable: Sendable {
    var then: TinyThen? { get throws }
}
// end-snippet

/// The error a promise resolved with itself is rejected with (Promises/A+ 2.3.1).
public struct TinyCycleError: Error {}

/// A minimal untyped promise, written only to show an outside library through the Promises/A+
/// suite and the cost runners: callbacks run on the main queue unless `then` names another,
/// values are `(any Sendable)?`, and it assimilates any `TinyThenable` or `TinyPropertyThenable`.
public final class TinyPromise: Sendable {
    public typealias Value = (any Sendable)?
    typealias Callback = @Sendable (Result<Value, any Error>) -> Void

    private enum State {
        /// The callbacks, each with the queue it runs on, in registration order.
        case pending([(DispatchQueue, Callback)])
        case settled(Result<Value, any Error>)
    }

    /// Guards the state.
    private let state = Mutex(State.pending([]))
    /// Whether `resolve` or `reject` was called: only the first call counts.
    private let claimed = Atomic<Bool>(false)

    /// Makes a pending promise.
    public init() {}

    /// Resolves the promise: fulfils it with a plain value, adopts a `TinyPromise` and
    /// assimilates a `TinyThenable`.
    public func resolve(_ value: Value) {
        if claim() { run(resolving: value) }
    }

    /// Rejects the promise.
    public func reject(_ error: any Error) {
        if claim() { settle(.failure(error)) }
    }

    /// Registers callbacks; each runs on `queue` (the main queue by default), never before `then`
    /// returns.
    public func then(
        on queue: DispatchQueue = .main,
        _ onFulfilled: (@Sendable (Value) throws -> Value)? = nil,
        _ onRejected: (@Sendable (any Error) throws -> Value)? = nil
    ) -> TinyPromise {
        let next = TinyPromise()
        observe(on: queue) { result in
            do {
                switch result {
                case .success(let value):
                    if let onFulfilled { next.resolve(try onFulfilled(value)) } else { next.settleClaimed(result) }
                case .failure(let error):
                    if let onRejected { next.resolve(try onRejected(error)) } else { next.settleClaimed(result) }
                }
            } catch {
                next.reject(error)
            }
        }
        return next
    }

    private func claim() -> Bool {
        claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    private func settleClaimed(_ result: Result<Value, any Error>) {
        if claim() { settle(result) }
    }

    /// The resolution procedure (Promises/A+ 2.3).
    private func run(resolving value: Value) {
        if let promise = value as? TinyPromise {
            if promise === self { return settle(.failure(TinyCycleError())) }
            promise.observe(on: .main) { self.settle($0) }  // adopts its state one main-queue hop later
        } else if let thenable = value as? any TinyThenable {
            call(thenable.then(onFulfilled:onRejected:))
        } else if let object = value as? any TinyPropertyThenable {
            let then: TinyThen?
            do {
                then = try object.then  // read once (2.3.3.1)
            } catch {
                return settle(.failure(error))  // 2.3.3.2
            }
            guard let then else { return settle(.success(value)) }  // not a function: a value (2.3.3.4)
            call(then)
        } else {
            settle(.success(value))
        }
    }

    /// Calls a thenable's `then`; the first of its callbacks wins, and a throw after it is ignored.
    private func call(
        _ then: (@escaping @Sendable (Value) -> Void, @escaping @Sendable (any Error) -> Void) throws -> Void
    ) {
        let once = Once()
        do {
            try then(
                { y in if once.claim() { self.run(resolving: y) } },
                { reason in if once.claim() { self.settle(.failure(reason)) } }
            )
        } catch {
            if once.claim() { settle(.failure(error)) }
        }
    }

    /// Settles the promise once, and queues the callbacks on their queues in the order they were
    /// registered. They are queued under the lock: a `then` on another thread that sees the promise
    /// settled then queues its callback after these, never before (Promises/A+ 2.2.6).
    private func settle(_ result: Result<Value, any Error>) {
        state.withLock { state in
            guard case .pending(let callbacks) = state else { return }
            state = .settled(result)
            for (queue, callback) in callbacks { queue.async { callback(result) } }
        }
    }

    /// Runs `callback` on `queue` once the promise is settled.
    private func observe(on queue: DispatchQueue, _ callback: @escaping Callback) {
        state.withLock { state in
            switch state {
            case .pending(let callbacks):
                state = .pending(callbacks + [(queue, callback)])
            case .settled(let result):
                queue.async { callback(result) }
            }
        }
    }
}

/// The first of a thenable's callbacks wins (Promises/A+ 2.3.3.3.3).
private final class Once: Sendable {
    private let called = Atomic<Bool>(false)
    func claim() -> Bool {
        called.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }
}
