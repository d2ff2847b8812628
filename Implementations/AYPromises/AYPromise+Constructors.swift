import Dispatch
import PromiseRuntime

extension AYPromise {
    /// Makes a promise and runs `body` on the main queue with a resolve callback (the original's
    /// `AYPromiseWithResolve`).
    ///
    /// ```swift
    /// let promise = AYPromise.withResolve { resolve in
    ///     fetch { data, error in resolve(error ?? data) }
    /// }
    /// ```
    ///
    /// The first call to `resolve` resolves the promise: a promise or thenable is adopted, an
    /// `Error` rejects, anything else (`nil` included) fulfils. A throw from `body` before any
    /// call rejects. `body` starts at once but asynchronously, as in the original (it dispatches
    /// onto the main queue even when called there), so it never runs on the caller's stack.
    ///
    /// - Parameter body: The work; it may call `resolve` later, from any thread.
    /// - Returns: The promise `resolve` settles.
    public static func withResolve(_ body: @escaping @Sendable (@escaping AYResolve) throws -> Void) -> AYPromise {
        start(on: .main, handler: { $0.resolveCallback(on: nil) }, body)
    }

    /// ``withResolve(_:)`` with `body` on a global queue (the original's
    /// `AYPromiseAsyncWithResolve`).
    public static func asyncWithResolve(
        _ body: @escaping @Sendable (@escaping AYResolve) throws -> Void
    )
        -> AYPromise
    {
        start(on: .global(), handler: { $0.resolveCallback(on: .global()) }, body)
    }

    /// Makes a promise from a completion-handler API: `body` runs on the main queue, as in
    /// ``withResolve(_:)``, with a handler that takes a `Result`.
    ///
    /// ```swift
    /// func fetchUser(_ id: Int, completion: @escaping @Sendable (Result<User, any Error>) -> Void)
    /// let user = AYPromise.withCompletion { fetchUser(42, completion: $0) }
    /// ```
    ///
    /// `.failure` rejects with its error. `.success` resolves with its value, as a block's return
    /// value does (an `AYPromise` or thenable is adopted; see ``AYOperator``). Only the first call
    /// counts; a throw from `body` before it rejects.
    ///
    /// - Parameter body: Starts the work; it calls the handler later, from any thread.
    /// - Returns: The promise the handler settles.
    public static func withCompletion<Value: Sendable>(
        _ body:
            @escaping @Sendable (_ completion: @escaping @Sendable (Result<Value, any Error>) -> Void) throws -> Void
    ) -> AYPromise {
        start(
            on: .main,
            handler: { promise in
                let completion: @Sendable (Result<Value, any Error>) -> Void = { result in
                    switch result {
                    case .success(let value): promise.resolveFirst(value, on: .main)
                    case .failure(let error): promise.rejectFirst(error)
                    }
                }
                return completion
            },
            body
        )
    }

    /// `withCompletion` for a handler in Objective-C's shape, a value or an error:
    /// an error that is not `nil` rejects, whatever the value; otherwise the value (`nil`
    /// included) resolves the promise.
    ///
    /// ```swift
    /// func fetchUser(_ id: Int, completion: @escaping @Sendable (User?, (any Error)?) -> Void)
    /// let user = AYPromise.withCompletion { fetchUser(42, completion: $0) }
    /// ```
    public static func withCompletion<Value: Sendable>(
        _ body: @escaping @Sendable (_ completion: @escaping @Sendable (Value?, (any Error)?) -> Void) throws -> Void
    ) -> AYPromise {
        // The Result form, with `nil` as a value: the resolution procedure turns a `nil` at any depth
        // of optionals into `nil`.
        withCompletion { (complete: @escaping @Sendable (Result<Value?, any Error>) -> Void) in
            try body { value, error in complete(error.map { .failure($0) } ?? .success(value)) }
        }
    }

    /// Runs `body` on `queue` with the handler `makeHandler` makes for a new promise; a throw from
    /// `body` before the handler settled the promise rejects it.
    private static func start<Handler>(
        on queue: DispatchQueue,
        handler makeHandler: @escaping @Sendable (AYPromise) -> Handler,
        _ body: @escaping @Sendable (Handler) throws -> Void
    ) -> AYPromise {
        let promise = AYPromise(pending: ())
        queue.async {
            do {
                try body(makeHandler(promise))
            } catch {
                promise.rejectFirst(error)
            }
        }
        return promise
    }

    /// Makes a promise of a block's result (the original's `AYPromiseWith(block)`): the block runs
    /// on the main queue and what it returns decides the promise, as for ``then``.
    ///
    /// ```swift
    /// AYPromise.with { "aa" }
    /// AYPromise.with { () throws -> PromiseValue in throw error }
    /// ```
    ///
    /// The original's documentation says the block runs synchronously, but its code runs it
    /// through `then` on the main queue; this follows the code, so that no block ever runs on the
    /// caller's stack.
    public static func with<Result: Sendable>(_ block: @escaping @Sendable () throws -> Result) -> AYPromise {
        resolve(nil).chain(.then(on: .main), AYTypedBlock<PromiseValue, Result>.takingNothing(block))
    }

    /// `with(_:)` for a block that returns a dynamic value (`nil`, or `return`s of
    /// several types).
    @_disfavoredOverload
    public static func with(_ block: @escaping @Sendable () throws -> PromiseValue) -> AYPromise {
        resolve(nil).chain(.then(on: .main), AYDynamicBlock<PromiseValue>.takingNothing(block))
    }

    /// Makes a promise from anything (the original's `AYPromiseWith(value)`):
    /// - an ``AYPromise`` is returned as is;
    /// - a block (`() throws -> PromiseValue` or `() throws -> Void`, passed as a value) runs on
    ///   the main queue, as `with { ... }`;
    /// - a function of any other type (`@Sendable () -> Int`, a block taking an argument) makes a
    ///   promise rejected with ``AYPromiseError/invalidArgument(_:)``: a dynamic value cannot be
    ///   cast to a function type other than its own, so such a block could not be run, and
    ///   fulfilling with the block itself would hide the mistake. Pass it as a block instead:
    ///   `with(block)` without `as PromiseValue`, or `with { block() }`;
    /// - an array becomes ``all`` of its elements;
    /// - an `Error` makes a rejected promise;
    /// - any other `Thenable` is assimilated;
    /// - anything else (`nil` included) makes a fulfilled promise.
    public static func with(_ value: PromiseValue) -> AYPromise {
        make(from: value, blockQueue: .main)
    }

    /// `with { ... }` with the block on a global queue (the original's
    /// `AYPromiseAsyncWith`).
    public static func asyncWith<Result: Sendable>(_ block: @escaping @Sendable () throws -> Result) -> AYPromise {
        resolve(nil).chain(.then(on: .global()), AYTypedBlock<PromiseValue, Result>.takingNothing(block))
    }

    /// `asyncWith(_:)` for a block that returns a dynamic value.
    @_disfavoredOverload
    public static func asyncWith(_ block: @escaping @Sendable () throws -> PromiseValue) -> AYPromise {
        resolve(nil).chain(.then(on: .global()), AYDynamicBlock<PromiseValue>.takingNothing(block))
    }

    /// `with(value)` with a block value run on a global queue; any other value (a function of
    /// another type included) is handled exactly as by `with`.
    public static func asyncWith(_ value: PromiseValue) -> AYPromise {
        make(from: value, blockQueue: .global())
    }

    private static func make(from value: PromiseValue, blockQueue: DispatchQueue) -> AYPromise {
        if let block = value as? @Sendable () throws -> PromiseValue {
            return resolve(nil).chain(.then(on: blockQueue), AYDynamicBlock<PromiseValue>.takingNothing(block))
        }
        if let block = value as? @Sendable () throws -> Void {
            return resolve(nil).chain(.then(on: blockQueue), AYTypedBlock<PromiseValue, Void>.takingNothing(block))
        }
        if let value, isFunctionType(type(of: value)) {
            let reason =
                "with(value) runs a block of type () throws -> PromiseValue or () throws -> Void, "
                + "not \(type(of: value)); pass it as a block: with(block) or with { block() }"
            return AYPromise(settled: .failure(AYPromiseError.invalidArgument(reason)))
        }
        if let array = value as? [PromiseValue] {
            return all(array)
        }
        return resolve(value)
    }

    /// Whether `type` is a function type.
    ///
    /// No cast matches every function type (`as?` needs the exact signature), so this reads the
    /// type's metadata kind. Tested for functions, tuples holding one, classes and structs.
    private static func isFunctionType(_ type: Any.Type) -> Bool {
        TypeMetadataKind(of: type) == .function
    }

    /// Makes a promise from a value (the original's `AYPromise.resolve(value)`): an
    /// ``AYPromise`` is returned as is, an `Error` makes a rejected promise, any other
    /// `Thenable` is assimilated (its `then` called on the main queue), anything else makes a
    /// fulfilled promise.
    ///
    /// ```swift
    /// AYPromise.resolve(42).then { value in ... }
    /// ```
    ///
    /// A property returning a closure, like the original's class property.
    public static var resolve: @Sendable (PromiseValue) -> AYPromise {
        { value in
            switch AYResolution(value) {
            case .fulfil(let value): return AYPromise(settled: .success(value))
            case .reject(let error): return AYPromise(settled: .failure(error))
            case .adopt(let promise): return promise
            case .assimilate(let thenable):
                let promise = AYPromise(pending: ())
                promise.assimilate(thenable, on: .main)
                return promise
            }
        }
    }
}
