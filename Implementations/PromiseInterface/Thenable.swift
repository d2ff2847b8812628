/// An object with a `then` method: the shape Promises/A+ 2.3.3 assimilates.
///
/// A foreign thenable is not trusted. Its `then` may call `resolvePromise` or `rejectPromise`
/// synchronously or later, call both, call either several times, or throw before or after calling
/// back. Every design's resolution procedure accepts any `Thenable`, which is also how promises of
/// different designs interoperate: each design's promise conforms, so an FBL promise resolved with
/// an AY promise adopts its outcome.
///
/// Resolution procedures call a thenable through ``Thenable/thenOnce(resolvePromise:rejectPromise:)``,
/// which enforces the spec's rules for misbehaving thenables.
public protocol Thenable: Sendable {
    /// Registers the two callbacks that settle whatever adopts this thenable.
    ///
    /// - Parameters:
    ///   - resolvePromise: Resolves the adopting promise with a value, which may itself be a promise
    ///     or a thenable (Promises/A+ 2.3.3.3.1).
    ///   - rejectPromise: Rejects the adopting promise with a reason (2.3.3.3.2).
    /// - Throws: Anything; a throw before either callback was called rejects the adopting promise
    ///   (2.3.3.3.4).
    func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) throws
}

extension Thenable {
    /// Calls ``then(resolvePromise:rejectPromise:)`` so that only the first callback counts.
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
