public import SharedPromiseTypes

/// What `thenOnce(resolvePromise:rejectPromise:)` did with a thenable.
public enum ThenCall: Sendable, Equatable {
    /// It called the thenable's `then` (or rejected because reading `then` threw): the callbacks
    /// settle the adopting promise.
    case called
    /// The thenable's `then` property holds no function (Promises/A+ 2.3.3.4): neither callback
    /// will run, and the caller fulfils the adopting promise with the thenable itself, as a value.
    case thenIsNotAFunction
}

extension Thenable {
    /// Calls `then(resolvePromise:rejectPromise:)` so that only the first callback counts.
    ///
    /// This is the part of the resolution procedure that guards against a misbehaving thenable:
    /// - a ``PropertyThenable``'s `then` is read exactly once and the function read is the one
    ///   called (Promises/A+ 2.3.3.1); a read that throws rejects with what it threw (2.3.3.2);
    ///   a read that gives no function returns ``ThenCall/thenIsNotAFunction`` (2.3.3.4);
    /// - the first call to either callback wins and later calls are ignored (2.3.3.3.3);
    /// - a throw after a callback was called is ignored (2.3.3.3.4.1);
    /// - a throw before any callback rejects with the thrown error (2.3.3.3.4.2).
    ///
    /// `then` is called at most once, on the caller's thread. The callbacks run wherever the
    /// thenable calls them.
    ///
    /// - Parameters:
    ///   - resolvePromise: Called at most once, with the value to resolve with.
    ///   - rejectPromise: Called at most once (and never after `resolvePromise`), with the reason.
    /// - Returns: Whether `then` was called; the caller handles ``ThenCall/thenIsNotAFunction``.
    public func thenOnce(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) -> ThenCall {
        let gate = FirstCallGate()
        let resolveFirst: @Sendable (PromiseValue) -> Void = { value in
            if gate.claim() { resolvePromise(value) }
        }
        let rejectFirst: @Sendable (any Error) -> Void = { reason in
            if gate.claim() { rejectPromise(reason) }
        }
        do {
            if let property = self as? any PropertyThenable {
                let function: ThenFunction?
                do {
                    function = try property.then
                } catch {
                    rejectPromise(error)
                    return .called
                }
                guard let function else { return .thenIsNotAFunction }
                try function(resolveFirst, rejectFirst)
            } else {
                try then(resolvePromise: resolveFirst, rejectPromise: rejectFirst)
            }
        } catch {
            if gate.claim() { rejectPromise(error) }
        }
        return .called
    }
}
