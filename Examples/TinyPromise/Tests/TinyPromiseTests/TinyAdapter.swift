import APlusSuite
import TinyPromise

// snippet: aplus-adapter
/// The whole adapter the Promises/A+ suite needs for `TinyPromise`.
enum TinyAdapter: APlusAdapter {
    static func deferred() -> APlusDeferred<TinyPromise> {
        let promise = TinyPromise()
        return APlusDeferred(promise: promise, resolve: promise.resolve, reject: promise.reject)
    }

    static func then(
        _ promise: TinyPromise,
        onFulfilled: (@Sendable (APlusValue) throws -> APlusValue)?,
        onRejected: (@Sendable (any Error) throws -> APlusValue)?
    ) -> TinyPromise {
        promise.then(onFulfilled, onRejected)
    }

    /// The suite's foreign thenable, as a thenable TinyPromise assimilates.
    static func thenable(_ foreign: any APlusThenable) -> APlusValue {
        foreign is any Error
            ? ForeignThenableError(ForeignThenable(foreign: foreign)) : ForeignThenable(foreign: foreign)
    }

    static func isCycleError(_ error: any Error) -> Bool { error is TinyCycleError }
}

/// Forwards TinyPromise's `then` to the foreign thenable's, unchanged.
struct ForeignThenable: TinyThenable {
    let foreign: any APlusThenable

    func then(
        onFulfilled: @escaping @Sendable ((any Sendable)?) -> Void,
        onRejected: @escaping @Sendable (any Error) -> Void
    ) throws {
        try foreign.then(resolvePromise: onFulfilled, rejectPromise: onRejected)
    }
}

/// A foreign thenable that is also an error: the suite checks that a reason is never assimilated.
final class ForeignThenableError: Error, TinyThenable {
    let thenable: ForeignThenable
    init(_ thenable: ForeignThenable) { self.thenable = thenable }

    func then(
        onFulfilled: @escaping @Sendable ((any Sendable)?) -> Void,
        onRejected: @escaping @Sendable (any Error) -> Void
    ) throws {
        try thenable.then(onFulfilled: onFulfilled, onRejected: onRejected)
    }
}
// end-snippet

// snippet: aplus-adapter-property-thenables
extension TinyAdapter {
    /// The suite's thenable whose `then` is a property, as one TinyPromise assimilates.
    static func propertyThenable(_ foreign: any APlusPropertyThenable) -> APlusValue {
        ForeignPropertyThenable(foreign: foreign)
    }
}

/// Forwards each read of TinyPromise's `then` property to the foreign thenable's, unchanged.
struct ForeignPropertyThenable: TinyPropertyThenable {
    let foreign: any APlusPropertyThenable

    var then: TinyThen? {
        get throws { try foreign.then }
    }
}
// end-snippet
