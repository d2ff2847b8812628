import PromiseRuntime

extension FBLPromise: Thenable {
    /// Lets any design's resolution procedure adopt this promise: the callbacks are dispatched onto
    /// ``defaultQueue`` once it settles.
    ///
    /// This untyped `then` exists for interoperability (Promises/A+ 2.3.3); in Swift code use the
    /// typed `then(on:_:)` and ``observe(on:fulfill:reject:)``.
    public func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) {
        observe(fulfill: { resolvePromise($0) }, reject: rejectPromise)
    }
}
