import APlusSuite
import TypedPromise

/// The whole adapter the Promises/A+ suite needs for `TypedPromise`: the typed promise specialised
/// to the suite's untyped value, driven through the library's public API only.
enum TypedAdapter: APlusAdapter {
    typealias PromiseUnderTest = Promise<APlusValue>

    static func deferred() -> APlusDeferred<Promise<APlusValue>> {
        let (promise, resolver) = Promise<APlusValue>.pending()
        return APlusDeferred(
            promise: promise, resolve: { value in resolver.resolve(adopting(value)) }, reject: resolver.reject)
    }

    /// `then(f, r)` from the library's one-callback operators. The outcome is first turned into a
    /// `Result` (`map` cannot throw here, so `recover` sees the original rejection only); one
    /// `then` then calls `f` or `r`, never both, and rejects with what either throws.
    static func then(
        _ promise: Promise<APlusValue>,
        onFulfilled: (@Sendable (APlusValue) throws -> APlusValue)?,
        onRejected: (@Sendable (any Error) throws -> APlusValue)?
    ) -> Promise<APlusValue> {
        promise
            .map { value in Result<APlusValue, any Error>.success(value) }
            .recover { reason in Promise(value: .failure(reason)) }
            .then { outcome in
                switch outcome {
                case .success(let value):
                    guard let onFulfilled else { return Promise(value: value) }
                    return adopting(try onFulfilled(value))
                case .failure(let reason):
                    guard let onRejected else { return Promise(error: reason) }
                    return adopting(try onRejected(reason))
                }
            }
    }

    /// The library does not know thenables: the foreign thenable goes in unchanged and is a plain
    /// value to it, so the cases of 2.3.3 fail. Assimilating it here would test the adapter.
    static func thenable(_ foreign: any APlusThenable) -> APlusValue { foreign }

    static func isCycleError(_ error: any Error) -> Bool { error is PromiseCycleError }

    /// What the library adopts for a value: its own promise as it is, any other value fulfilled.
    private static func adopting(_ value: APlusValue) -> Promise<APlusValue> {
        value as? Promise<APlusValue> ?? Promise(value: value)
    }
}
