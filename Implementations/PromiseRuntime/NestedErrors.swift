/// The errors a combinator's error wraps, in a class so that freeing a deep nest of them cannot
/// recurse.
///
/// Combinators nest (`acc = all([acc, p])` in a loop, a first-success task of first-success
/// tasks), and so do their errors: the outermost error of 100,000 nested combinators wraps
/// 100,000 levels. Freeing that from one stack would free each level from the previous one's
/// release, one set of frames per level, and overflow. When the errors held here may be
/// combinator errors themselves (`mayNest`), they are let go through ``releaseIteratively(_:)``
/// instead: one level after another, as a pending promise lets go of its observers.
///
/// A design's combinator error keeps one of these in a stored property and reads its errors
/// through ``errors``.
public final class NestedErrors: Sendable {
    /// Guards the errors; a mutex only so that `deinit` can take them out and hand over the only
    /// reference (`releaseIteratively`): a copy would leave this object's own reference to be
    /// released last, nested.
    private let storage: PromiseMutex<[any Error]>
    private let mayNest: Bool

    /// Keeps `errors`.
    ///
    /// - Parameters:
    ///   - errors: The wrapped errors.
    ///   - mayNest: Whether any of them is a combinator error that holds errors of its own (only
    ///     then is freeing them deferred to `releaseIteratively`).
    public init(_ errors: [any Error], mayNest: Bool) {
        storage = PromiseMutex(errors)
        self.mayNest = mayNest
    }

    /// The wrapped errors, in the order given.
    public var errors: [any Error] { storage.withLock { $0 } }

    deinit {
        guard mayNest else { return }
        releaseIteratively(
            storage.withLock { errors in
                defer { errors = [] }
                return errors
            })
    }
}
