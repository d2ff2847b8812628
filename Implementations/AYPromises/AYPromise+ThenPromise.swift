public import Dispatch
import PromiseRuntime

/// What ``AYPromise/thenPromise`` returns: call it with a block that settles the next promise
/// through a resolve callback instead of returning a value.
///
/// ```swift
/// promise.thenPromise { value, resolve in
///     download(value) { data, error in resolve(error ?? data) }
/// }
/// promise.thenPromise { resolve in resolve(42) }   // without the value
/// ```
public struct AYThenPromiseOperator: Sendable {
    /// The promise the block is chained to.
    let source: AYPromise
    /// Where the block runs.
    let queue: DispatchQueue

    /// Chains a block that gets the value and a resolve callback.
    ///
    /// - Parameter block: Runs once, on the operator's queue. The first call to `resolve` resolves the
    ///   next promise (a promise or thenable is adopted, an error rejects, anything else fulfils);
    ///   a throw before any call rejects it.
    /// - Returns: The next promise.
    @discardableResult
    public func callAsFunction(
        _ block: @escaping @Sendable (PromiseValue, @escaping AYResolve) throws -> Void
    ) -> AYPromise {
        source.chainThenPromise(on: queue, block)
    }

    /// Chains a block that gets only the resolve callback.
    @discardableResult
    public func callAsFunction(_ block: @escaping @Sendable (@escaping AYResolve) throws -> Void) -> AYPromise {
        source.chainThenPromise(on: queue) { _, resolve in try block(resolve) }
    }
}

/// What ``AYPromise/thenPromiseOn`` returns: call it with a queue and a block,
/// `promise.thenPromiseOn(queue) { value, resolve in ... }`.
public struct AYThenPromiseOnOperator: Sendable {
    /// The promise the block is chained to.
    let source: AYPromise

    /// Chains a block that runs on `queue` with the value and a resolve callback.
    @discardableResult
    public func callAsFunction(
        _ queue: DispatchQueue,
        _ block: @escaping @Sendable (PromiseValue, @escaping AYResolve) throws -> Void
    ) -> AYPromise {
        AYThenPromiseOperator(source: source, queue: queue)(block)
    }

    /// Chains a block that runs on `queue` with only the resolve callback.
    @discardableResult
    public func callAsFunction(
        _ queue: DispatchQueue,
        _ block: @escaping @Sendable (@escaping AYResolve) throws -> Void
    ) -> AYPromise {
        AYThenPromiseOperator(source: source, queue: queue)(block)
    }
}

extension AYPromise {
    /// A variant of ``then`` whose block settles the next promise by calling a resolve callback,
    /// now or later, instead of returning a value: for callback-based work inside a chain.
    ///
    /// A rejection skips the block and passes on. A block that never calls `resolve` leaves the
    /// next promise pending.
    ///
    /// Threading: the block runs on the main queue, asynchronously; `resolve` may be called from
    /// any thread.
    public var thenPromise: AYThenPromiseOperator {
        AYThenPromiseOperator(source: self, queue: .main)
    }

    /// ``thenPromise`` on a global queue (`DispatchQueue.global()`), as the original's
    /// `thenAsyncPromise`.
    public var thenAsyncPromise: AYThenPromiseOperator {
        AYThenPromiseOperator(source: self, queue: .global())
    }

    /// ``thenPromise`` on the queue given: `promise.thenPromiseOn(queue) { value, resolve in ... }`.
    /// Beyond the original, which has `thenOn` and `catchOn` but no queue-taking `thenPromise`.
    public var thenPromiseOn: AYThenPromiseOnOperator {
        AYThenPromiseOnOperator(source: self)
    }

    /// `thenPromise`'s chaining: the block runs on `queue` with the value and the next promise's
    /// resolve callback.
    fileprivate func chainThenPromise(
        on queue: DispatchQueue,
        _ block: @escaping @Sendable (PromiseValue, @escaping AYResolve) throws -> Void
    ) -> AYPromise {
        chain(on: queue) { outcome, next in
            guard case .success(let value) = outcome else {
                next.settle(outcome)
                return
            }
            do {
                try block(value, next.resolveCallback(on: queue))
            } catch {
                // A throw after `resolve` was called is ignored: the first call won.
                next.rejectFirst(error)
            }
        }
    }
}
