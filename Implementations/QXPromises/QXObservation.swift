import Synchronization

/// An observation made by ``QXObservable/observe(_:options:changeHandler:)``: the token that ends
/// it, as `NSKeyValueObservation` is.
///
/// Call ``invalidate()`` to stop observing; freeing the token does the same, so an observer that
/// wants to keep observing must keep its token. Invalidating is idempotent, works from any thread
/// and from inside any change handler (an observer may remove itself or others while a change is
/// being delivered), and once it returns the handler is not called again for later notifications.
/// A handler that is running on another thread at that moment finishes its call.
///
/// The token refers to the observed object's center weakly, so it never keeps the object alive.
public final class QXObservation: Sendable {
    let flag: QXObservationFlag
    private let unregister: @Sendable () -> Void

    init(flag: QXObservationFlag, unregister: @escaping @Sendable () -> Void) {
        self.flag = flag
        self.unregister = unregister
    }

    deinit {
        invalidate()
    }

    /// Whether the observation is still active.
    public var isValid: Bool { flag.isActive }

    /// Stops the observation. Calling it again does nothing.
    public func invalidate() {
        if flag.deactivate() { unregister() }
    }
}

/// Whether an observation is still active; shared by the token and the center's entry, so the
/// center can skip an observer removed while a change is being delivered without taking its lock.
final class QXObservationFlag: Sendable {
    private let active = Atomic<Bool>(true)

    var isActive: Bool { active.load(ordering: .acquiring) }

    /// Marks the observation inactive: `true` for the first caller only.
    func deactivate() -> Bool {
        active.exchange(false, ordering: .acquiringAndReleasing)
    }
}
