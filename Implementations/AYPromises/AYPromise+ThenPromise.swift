public import PromiseInterface

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

    /// Chains a block that gets the value and a resolve callback.
    ///
    /// - Parameter block: Runs once, on the main queue. The first call to `resolve` resolves the
    ///   next promise (a promise or thenable is adopted, an error rejects, anything else fulfils);
    ///   a throw before any call rejects it.
    /// - Returns: The next promise.
    @discardableResult
    public func callAsFunction(
        _ block: @escaping @Sendable (PromiseValue, @escaping AYResolve) throws -> Void
    ) -> AYPromise {
        source.chainThenPromise(block)
    }

    /// Chains a block that gets only the resolve callback.
    @discardableResult
    public func callAsFunction(_ block: @escaping @Sendable (@escaping AYResolve) throws -> Void) -> AYPromise {
        source.chainThenPromise { _, resolve in try block(resolve) }
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
        AYThenPromiseOperator(source: self)
    }

    /// `thenPromise`'s chaining: the block runs on the main queue with the value and the next
    /// promise's resolve callback.
    fileprivate func chainThenPromise(
        _ block: @escaping @Sendable (PromiseValue, @escaping AYResolve) throws -> Void
    ) -> AYPromise {
        chain(on: .main) { outcome, next in
            guard case .success(let value) = outcome else {
                next.settle(outcome)
                return
            }
            do {
                try block(value, next.resolveCallback(on: .main))
            } catch {
                // A throw after `resolve` was called is ignored: the first call won.
                next.rejectFirst(error)
            }
        }
    }
}
