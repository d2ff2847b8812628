/// An object with a `then` method: the shape Promises/A+ 2.3.3 assimilates.
///
/// A foreign thenable is not trusted. Its `then` may call `resolvePromise` or `rejectPromise`
/// synchronously or later, call both, call either several times, or throw before or after calling
/// back. Every design's resolution procedure accepts any `Thenable`, which is also how promises of
/// different designs interoperate: each design's promise conforms, so a promise of one design
/// resolved with a promise of another adopts its outcome.
///
/// Resolution procedures call a thenable through `thenOnce(resolvePromise:rejectPromise:)`
/// (module `PromiseRuntime`), which enforces the spec's rules for misbehaving thenables.
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

/// The function a ``PropertyThenable``'s `then` property holds.
public typealias ThenFunction =
    @Sendable (
        _ resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        _ rejectPromise: @escaping @Sendable (any Error) -> Void
    ) throws -> Void

/// A thenable whose `then` is a property, as JavaScript's is: reading it may throw, may give no
/// function, and may give a different function on each read.
///
/// Promises/A+ reads `x.then` once (2.3.3.1) and calls the function it read: a read that throws
/// rejects with what it threw (2.3.3.2), and a property that holds no function makes `x` a plain
/// value that fulfils (2.3.3.4). `thenOnce(resolvePromise:rejectPromise:)` (module
/// `PromiseRuntime`) reads it once and says when it held no function.
public protocol PropertyThenable: Thenable {
    /// The function that registers the callbacks, or `nil` if `then` holds no function.
    var then: ThenFunction? { get throws }
}

extension PropertyThenable {
    /// Reads ``then`` and calls the function it holds, if any; resolution procedures read it once
    /// through `thenOnce` instead.
    public func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) throws {
        try (try then)?(resolvePromise, rejectPromise)
    }
}
