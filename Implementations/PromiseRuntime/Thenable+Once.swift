public import SharedPromiseTypes

extension Thenable {
    /// Calls `then(resolvePromise:rejectPromise:)` so that only the first callback counts.
    ///
    /// This is the part of the resolution procedure that guards against a misbehaving thenable:
    /// - the first call to either callback wins and later calls are ignored (Promises/A+ 2.3.3.3.3);
    /// - a throw after a callback was called is ignored (2.3.3.3.4.1);
    /// - a throw before any callback rejects with the thrown error (2.3.3.3.4.2).
    ///
    /// `then` is called exactly once, on the caller's thread. The callbacks run wherever the
    /// thenable calls them.
    ///
    /// - Parameters:
    ///   - resolvePromise: Called at most once, with the value to resolve with.
    ///   - rejectPromise: Called at most once (and never after `resolvePromise`), with the reason.
    public func thenOnce(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) {
        let gate = FirstCallGate()
        do {
            try then(
                resolvePromise: { value in
                    if gate.claim() { resolvePromise(value) }
                },
                rejectPromise: { reason in
                    if gate.claim() { rejectPromise(reason) }
                }
            )
        } catch {
            if gate.claim() { rejectPromise(error) }
        }
    }
}
