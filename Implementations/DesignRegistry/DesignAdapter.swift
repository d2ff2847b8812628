public import APlusSuite
public import PromiseInterface

/// Drives a design through the Promises/A+ suite's public adapter protocol, the one an outside
/// library writes: `swift test` and `compare conformance` run the suite on each design through it.
///
/// Each requirement forwards to the design's `APlusPromise` conformance (`Adapters/`), which maps
/// onto the design's own API. The one thing added here is ``thenable(_:)``: the suite's foreign
/// thenables conform to its `APlusThenable`, which no design knows, so each is handed over as a
/// `Thenable`, the protocol every design's resolution procedure assimilates.
public enum DesignAdapter<Promise: APlusPromise>: APlusAdapter {
    public static func deferred() -> APlusDeferred<Promise> {
        Promise.deferred()
    }

    public static func resolved(_ value: APlusValue) -> Promise {
        Promise.resolved(value)
    }

    public static func rejected(_ reason: any Error) -> Promise {
        Promise.rejected(reason)
    }

    public static func then(
        _ promise: Promise,
        onFulfilled: (@Sendable (APlusValue) throws -> APlusValue)?,
        onRejected: (@Sendable (any Error) throws -> APlusValue)?
    ) -> Promise {
        promise.then(onFulfilled: onFulfilled, onRejected: onRejected)
    }

    /// The foreign thenable as a `Thenable` whose `then` is the foreign one, unguarded: the
    /// design's own procedure must guard it. A thenable that is also an error (a rejection reason
    /// the suite checks is never assimilated) stays an error.
    public static func thenable(_ foreign: any APlusThenable) -> APlusValue {
        foreign is any Error ? ForeignThenableError(foreign) : ForeignThenable(foreign: foreign)
    }

    public static func isCycleError(_ error: any Error) -> Bool {
        Promise.isCycleError(error)
    }
}

/// A foreign thenable as a `Thenable`.
struct ForeignThenable: Thenable {
    let foreign: any APlusThenable

    func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) throws {
        try foreign.then(resolvePromise: resolvePromise, rejectPromise: rejectPromise)
    }
}

/// A foreign thenable that is also an error, as a `Thenable` error object (the suite compares
/// reasons of this kind by identity).
final class ForeignThenableError: Error, Thenable {
    let foreign: ForeignThenable

    init(_ foreign: any APlusThenable) { self.foreign = ForeignThenable(foreign: foreign) }

    func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) throws {
        try foreign.then(resolvePromise: resolvePromise, rejectPromise: rejectPromise)
    }
}

extension Design {
    /// The design's adapter for the Promises/A+ suite (``DesignAdapter`` over its promise type).
    public var adapter: any APlusAdapter.Type {
        func adapter<P: APlusPromise>(for _: P.Type) -> any APlusAdapter.Type { DesignAdapter<P>.self }
        return adapter(for: promiseType)
    }
}
