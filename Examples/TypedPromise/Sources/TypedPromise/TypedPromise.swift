import Dispatch
import Synchronization

/// The error a promise resolved with itself is rejected with (Promises/A+ 2.3.1): a resolver
/// given its own promise, or a `then` callback that returns the promise that `then` returned.
public struct PromiseCycleError: Error {}

/// A minimal typed promise, written only to show a library of the common Swift shape running the
/// Promises/A+ suite: a promise of a `T` or an error, settled through a ``Resolver``, with a
/// one-callback ``then(on:_:)``, ``map(on:_:)`` and ``recover(on:_:)``. Callbacks run on the
/// queue they are given (the main queue by default), never before the method that registers them
/// returns. It adopts its own promises and knows no thenables.
public final class Promise<T: Sendable>: Sendable {
    typealias Observer = @Sendable (Result<T, any Error>) -> Void

    private enum State {
        case pending([Observer])
        case settled(Result<T, any Error>)
    }

    /// Guards the state. Observers run under it, in the order they were registered, and each one
    /// only queues work on a dispatch queue: so the queue runs the work in that order, and no
    /// other lock is taken while this one is held.
    private let state: Mutex<State>

    private init(state: State) { self.state = Mutex(state) }

    /// Makes a pending promise and hands `body` the resolver that settles it; `body` runs before
    /// `init` returns.
    public convenience init(_ body: (_ resolver: Resolver<T>) -> Void) {
        self.init(state: .pending([]))
        body(Resolver(self))
    }

    /// Makes a promise fulfilled with `value`.
    public convenience init(value: T) { self.init(state: .settled(.success(value))) }

    /// Makes a promise rejected with `error`.
    public convenience init(error: any Error) { self.init(state: .settled(.failure(error))) }

    /// Makes a pending promise and the resolver that settles it.
    public static func pending() -> (promise: Promise<T>, resolver: Resolver<T>) {
        let promise = Promise(state: .pending([]))
        return (promise, Resolver(promise))
    }

    /// Calls `body` with the value once the promise is fulfilled.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs; never before `then` returns.
    ///   - body: Makes the promise the returned promise adopts; a throw rejects it.
    /// - Returns: A promise that adopts the promise `body` returns. When this promise is rejected,
    ///   `body` is not called and the returned promise is rejected with the same error.
    public func then<U: Sendable>(
        on queue: DispatchQueue = .main,
        _ body: @escaping @Sendable (T) throws -> Promise<U>
    ) -> Promise<U> {
        let (next, resolver) = Promise<U>.pending()
        observe { result in
            switch result {
            case .success(let value): queue.async { resolver.resolve(on: queue) { try body(value) } }
            case .failure(let error): queue.async { resolver.reject(error) }
            }
        }
        return next
    }

    /// Calls `body` with the value once the promise is fulfilled, and fulfils the returned promise
    /// with its result; a throw, or this promise's error, rejects it.
    public func map<U: Sendable>(
        on queue: DispatchQueue = .main,
        _ body: @escaping @Sendable (T) throws -> U
    ) -> Promise<U> {
        then(on: queue) { value in Promise<U>(value: try body(value)) }
    }

    /// Calls `body` with the error once the promise is rejected.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs; never before `recover` returns.
    ///   - body: Makes the promise the returned promise adopts; a throw rejects it.
    /// - Returns: A promise that adopts the promise `body` returns. When this promise is fulfilled,
    ///   `body` is not called and the returned promise is fulfilled with the same value.
    public func recover(
        on queue: DispatchQueue = .main,
        _ body: @escaping @Sendable (any Error) throws -> Promise<T>
    ) -> Promise<T> {
        let (next, resolver) = Promise.pending()
        observe { result in
            switch result {
            case .success(let value): queue.async { resolver.fulfill(value) }
            case .failure(let error): queue.async { resolver.resolve(on: queue) { try body(error) } }
            }
        }
        return next
    }

    /// Settles the promise, once, and runs its observers.
    fileprivate func settle(_ result: Result<T, any Error>) {
        state.withLock { state in
            guard case .pending(let observers) = state else { return }
            state = .settled(result)
            for observer in observers { observer(result) }
        }
    }

    /// Runs `observer` once the promise is settled: now if it is.
    fileprivate func observe(_ observer: @escaping Observer) {
        state.withLock { state in
            switch state {
            case .pending(let observers): state = .pending(observers + [observer])
            case .settled(let result): observer(result)
            }
        }
    }
}

/// Settles one promise. The first call of ``fulfill(_:)``, ``reject(_:)`` or ``resolve(_:)``
/// counts; later calls are ignored.
public final class Resolver<T: Sendable>: Sendable {
    private let promise: Promise<T>
    /// Whether a call already counted.
    private let claimed = Atomic<Bool>(false)

    fileprivate init(_ promise: Promise<T>) { self.promise = promise }

    /// Fulfils the promise with `value`.
    public func fulfill(_ value: T) {
        if claim() { promise.settle(.success(value)) }
    }

    /// Rejects the promise with `error`.
    public func reject(_ error: any Error) {
        if claim() { promise.settle(.failure(error)) }
    }

    /// Makes the promise adopt `other`: it settles as `other` does, on `queue`, or is rejected
    /// with a ``PromiseCycleError`` when `other` is the promise itself.
    public func resolve(_ other: Promise<T>, on queue: DispatchQueue = .main) {
        guard claim() else { return }
        if other === promise { return promise.settle(.failure(PromiseCycleError())) }
        other.observe { [promise] result in queue.async { promise.settle(result) } }
    }

    /// Adopts the promise `body` returns, or rejects with what it throws.
    fileprivate func resolve(on queue: DispatchQueue, _ body: () throws -> Promise<T>) {
        do { resolve(try body(), on: queue) } catch { reject(error) }
    }

    private func claim() -> Bool {
        claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }
}
