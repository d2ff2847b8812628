import PromiseRuntime

extension FBLPromise: Thenable {
    /// Lets any design's resolution procedure adopt this promise: the callbacks are dispatched onto
    /// ``defaultQueue`` once it settles. The value is handed over exactly as the promise holds
    /// it: a promise of `PromiseValue` passes its value on without a second Optional layer.
    ///
    /// This untyped `then` exists for interoperability (Promises/A+ 2.3.3); in Swift code use the
    /// typed `then(on:_:)` and ``observe(on:fulfill:reject:)``.
    public func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) {
        // Exactly the value held: a `PromiseValue` is not wrapped in one more Optional.
        observe(fulfill: { resolvePromise(PromiseValue(handingOver: $0)) }, reject: rejectPromise)
    }
}
