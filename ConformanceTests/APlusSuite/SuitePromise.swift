/// The suite's view of one promise of the library under test: the cases call `then` on it as the
/// JavaScript suite calls `promise.then`, and every value it hands the library goes through
/// ``handOver(_:)`` first.
struct SuitePromise<Adapter: APlusAdapter>: Sendable {
    /// The library's promise.
    let base: Adapter.PromiseUnderTest

    static func deferred() -> APlusDeferred<SuitePromise> {
        let deferred = Adapter.deferred()
        let resolve = deferred.resolve
        return APlusDeferred(
            promise: SuitePromise(base: deferred.promise),
            resolve: { value in resolve(handOver(value)) },
            reject: deferred.reject
        )
    }

    static func resolved(_ value: APlusValue) -> SuitePromise {
        SuitePromise(base: Adapter.resolved(handOver(value)))
    }

    static func rejected(_ reason: any Error) -> SuitePromise {
        SuitePromise(base: Adapter.rejected(reason))
    }

    static func isCycleError(_ error: any Error) -> Bool {
        Adapter.isCycleError(error)
    }

    func then(
        onFulfilled: (@Sendable (APlusValue) throws -> APlusValue)?,
        onRejected: (@Sendable (any Error) throws -> APlusValue)?
    ) -> SuitePromise {
        var handingOverOnFulfilled: (@Sendable (APlusValue) throws -> APlusValue)?
        var handingOverOnRejected: (@Sendable (any Error) throws -> APlusValue)?
        if let onFulfilled {
            handingOverOnFulfilled = { value in
                MainQueueCheck.note(for: ObjectIdentifier(Adapter.self))
                return Self.handOver(try onFulfilled(value))
            }
        }
        if let onRejected {
            handingOverOnRejected = { reason in
                MainQueueCheck.note(for: ObjectIdentifier(Adapter.self))
                return Self.handOver(try onRejected(reason))
            }
        }
        return SuitePromise(
            base: Adapter.then(base, onFulfilled: handingOverOnFulfilled, onRejected: handingOverOnRejected))
    }

    /// What the library receives for a value the suite hands it: the library's promise for a
    /// ``SuitePromise``, the adapter's thenable for a foreign thenable of either kind (whose
    /// `resolvePromise` hands its values over the same way), and any other value as it is.
    static func handOver(_ value: APlusValue) -> APlusValue {
        switch value {
        case let promise as SuitePromise:
            return promise.base
        case let foreign as any APlusThenable:
            return Adapter.thenable(HandingOverThenable<Adapter>(foreign))
        case let foreign as any APlusPropertyThenable:
            return Adapter.propertyThenable(HandingOverPropertyThenable<Adapter>(foreign))
        default:
            return value
        }
    }
}

/// A foreign thenable as the library sees it: its `then` is the suite's, and whatever it resolves
/// the library's promise with is handed over first (a `y` that is itself a thenable or a promise).
struct HandingOverThenable<Adapter: APlusAdapter>: APlusThenable {
    let foreign: any APlusThenable

    init(_ foreign: any APlusThenable) { self.foreign = foreign }

    func then(
        resolvePromise: @escaping @Sendable (APlusValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) throws {
        try foreign.then(
            resolvePromise: { y in resolvePromise(SuitePromise<Adapter>.handOver(y)) },
            rejectPromise: rejectPromise
        )
    }
}

/// A foreign thenable with a `then` property as the library sees it: each read is the suite's,
/// and the function read hands over what it resolves with, as ``HandingOverThenable`` does.
struct HandingOverPropertyThenable<Adapter: APlusAdapter>: APlusPropertyThenable {
    let foreign: any APlusPropertyThenable

    init(_ foreign: any APlusPropertyThenable) { self.foreign = foreign }

    var then: APlusThenFunction? {
        get throws {
            guard let function = try foreign.then else { return nil }
            return { resolvePromise, rejectPromise in
                try function({ y in resolvePromise(SuitePromise<Adapter>.handOver(y)) }, rejectPromise)
            }
        }
    }
}
