public import Dispatch
import PromiseInterface
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
