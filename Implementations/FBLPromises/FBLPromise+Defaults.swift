public import Dispatch
public import PromiseRuntime
import Synchronization

/// The queue callbacks run on when an operator is not given one. Shared by every `FBLPromise`
/// specialisation, as the original's single `defaultDispatchQueue`.
/// Initialised on first use, when the main queue is also tagged for ``awaitPromise(_:)``.
private let defaultQueueStorage: PromiseMutex<DispatchQueue> = {
    DefaultQueueMarker.mark(.main)
    return PromiseMutex(.main)
}()

/// The group every pending promise and every dispatched callback belongs to.
@usableFromInline let fblDispatchGroup = DispatchGroup()

extension FBLPromise {
    /// The queue every operator uses when it is not given `on:`: the main queue unless changed.
    ///
    /// Setting it affects every `FBLPromise` type at once (it is one global setting, as in the
    /// original) and only operators called afterwards.
    public static var defaultQueue: DispatchQueue {
        get { defaultQueueStorage.withLock { $0 } }
        set {
            defaultQueueStorage.withLock { queue in
                DefaultQueueMarker.mark(newValue)
                queue = newValue
            }
        }
    }

    /// The global dispatch group: entered by each pending promise until it settles or is freed,
    /// and by each callback until it has run. ``waitForPromises(timeout:)`` waits on it.
    public static var dispatchGroup: DispatchGroup { fblDispatchGroup }
}

extension DispatchQueue {
    /// The queue FBL operators use when they are not given `on:`: the same setting as
    /// ``FBLPromise/defaultQueue``, under google/promises' name (`DispatchQueue.promises`).
    public static var promises: DispatchQueue {
        get { FBLPromise<Void>.defaultQueue }
        set { FBLPromise<Void>.defaultQueue = newValue }
    }
}

extension DispatchGroup {
    /// The group of every pending FBL promise and dispatched callback: ``FBLPromise/dispatchGroup``
    /// under google/promises' name (`DispatchGroup.promises`).
    public static var promises: DispatchGroup { fblDispatchGroup }
}

/// The types FBL's resolution procedure found plain (not a promise, a thenable or an error): their
/// values fulfil without a cast, in ``FBLPromise/resolve(_:on:)-(Value,_)``,
/// ``FBLPromise/fulfill(_:)`` and `FBLPromise.init(_:)` (the autoclosure one) (see `PlainTypeCache`).
///
/// They look up `type(of: value)`, which in this generic code is `Value` itself: the remembered
/// types are concrete value types (`FBLPromise<Int>`'s `Int`), known without reading the value. For
/// an existential `Value` (`any Sendable`) it is the existential type, which is never remembered,
/// so such promises check every value.
@usableFromInline let fblPlainTypes = PlainTypeCache()
