public import PromiseInterface

extension QXPromise: Thenable {
    /// Lets any design's resolution procedure adopt this promise: the callbacks run on the
    /// ``QXPromise/defaultQueue`` once it settles (observed through the `state` key).
    ///
    /// In Swift code use ``then(on:_:)`` and ``catch(on:_:)``.
    public func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) {
        whenSettled(on: QXPromise.defaultQueue) { outcome in
            switch outcome {
            case .fulfilled(let value): resolvePromise(value)
            case .rejected(let error): rejectPromise(error)
            }
        }
    }
}

/// The shared protocol, on QX's own API.
///
/// `deferred` is ``QXPromise/pending(on:)`` with the resolver's `fulfill` (the design's resolution
/// procedure: QX promises observed, thenables assimilated, self-resolution the cycle error) and
/// `reject`; `then` is ``QXPromise/chain(on:thenBlock:catchBlock:)``. Callbacks are pinned to the
/// main queue, not ``QXPromise/defaultQueue``, so a test that changes the default cannot disturb
/// the suite's timing.
extension QXPromise: APlusPromise {
    public static func deferred() -> Deferred<QXPromise> {
        let (promise, resolver) = QXPromise.pending(on: .main)
        return Deferred(promise: promise, resolve: resolver.fulfill, reject: resolver.reject)
    }

    public static func resolved(_ value: PromiseValue) -> QXPromise {
        let (promise, resolver) = QXPromise.pending(on: .main)
        resolver.fulfill(value)
        return promise
    }

    public static func rejected(_ reason: any Error) -> QXPromise {
        QXPromise(rejectedWith: reason, on: .main)
    }

    public func then(
        onFulfilled: (@Sendable (PromiseValue) throws -> PromiseValue)?,
        onRejected: (@Sendable (any Error) throws -> PromiseValue)?
    ) -> QXPromise {
        chain(on: .main, thenBlock: onFulfilled, catchBlock: onRejected)
    }

    public var currentState: PromiseState {
        switch outcome {
        case nil: return .pending
        case .fulfilled(let value): return .fulfilled(value)
        case .rejected(let error): return .rejected(error)
        }
    }

    public static func isCycleError(_ error: any Error) -> Bool {
        (error as? QXPromiseError) == .cycle
    }
}
