import PromiseRuntime

/// An observation made by ``QXObservable/observe(_:options:changeHandler:)``: the token that ends
/// it, as `NSKeyValueObservation` is.
///
/// Call ``invalidate()`` to stop observing; freeing the token does the same, so an observer that
/// wants to keep observing must keep its token. Invalidating is idempotent, works from any thread
/// and from inside any change handler (an observer may remove itself or others while a change is
/// being delivered), and once it returns the handler is not called again for later notifications.
/// A handler that is running on another thread at that moment finishes its call.
///
/// The token refers to the observed object weakly, so it never keeps the object alive.
///
/// ## Cost
/// Two allocations per observation: this token and the observer it ends (which holds the change
/// handler); the object's list holds the observer, not the token, so that freeing the token ends
/// the observation. Ending it frees the handler at once, even if the token is kept.
public final class QXObservation: Sendable {
    private let observer: any QXObserverActivity
    /// Told when the observation ends, to count the observer as removable. Weak: the token must
    /// not keep the object alive (the first weak reference to an object allocates its side table
    /// once; later tokens of the same object share it).
    private weak let owner: (any QXObserverOwner)?

    init(observer: any QXObserverActivity, owner: any QXObserverOwner) {
        self.observer = observer
        self.owner = owner
    }

    deinit {
        invalidate()
    }

    /// Whether the observation is still active.
    public var isValid: Bool { observer.isActive }

    /// Stops the observation. Calling it again does nothing.
    public func invalidate() {
        if observer.deactivate() { owner?.observerDidEnd() }
    }
}

/// The object whose list holds an observer: told when one of its observers ends, so it can drop
/// the ended ones.
protocol QXObserverOwner: AnyObject, Sendable {
    func observerDidEnd()
}

/// Whether an observer is still active; shared by the token and the object's list, so a change
/// being delivered can skip an observer removed meanwhile without taking any lock.
protocol QXObserverActivity: AnyObject, Sendable {
    var isActive: Bool { get }
    /// Marks the observer inactive: `true` for the first caller only.
    func deactivate() -> Bool
}

/// What one notification is about, before each observer picks out its own key path.
enum QXChangeEvent<Properties: Sendable>: Sendable {
    /// The `.initial` notification, with the current properties.
    case initial(Properties)
    /// The notification before a change (`.prior`), with the properties before it.
    case prior(old: Properties)
    /// A change, with the properties before and after it.
    case setting(old: Properties, new: Properties)
}

/// One key-value observer: the handler, the key path it reads and the options, resolved once at
/// registration. The token shares it with the observed object's list.
final class QXKeyValueObserver<Object: AnyObject & Sendable, Properties: Sendable, Value: Sendable>:
    QXObserverActivity, QXObserverDelivery
{
    typealias ChangeHandler = @Sendable (Object, QXObservedChange<Value>) -> Void

    let keyPath: any KeyPath<Properties, Value> & Sendable
    let options: QXObservingOptions
    /// The handler in a struct: stored bare in the generic `PromiseMutex`, the closure would be
    /// kept in its most general form, behind a reabstraction thunk allocated per observation.
    private struct Handler: Sendable {
        let call: ChangeHandler
    }

    /// Guards the handler, which ending the observation takes away (so what it captures is freed
    /// then, not when the token goes); `nil` once ended.
    private let handler: PromiseMutex<Handler?>

    init(
        keyPath: any KeyPath<Properties, Value> & Sendable,
        options: QXObservingOptions,
        changeHandler: @escaping ChangeHandler
    ) {
        self.keyPath = keyPath
        self.options = options
        handler = PromiseMutex(Handler(call: changeHandler))
    }

    var isActive: Bool { handler.withLock { $0 != nil } }

    func deactivate() -> Bool {
        // Freed after the lock: it may hold a token of the same object, whose `deinit` ends it.
        let ended = handler.withLock { $0.take() }
        return ended != nil
    }

    /// Tells the handler of `event`, unless the observation ended meanwhile (checked at delivery:
    /// an observer removed while a change is being delivered, by itself or by an earlier observer,
    /// must not be told any more).
    func deliver(_ object: Object, _ event: QXChangeEvent<Properties>) {
        guard let changeHandler = handler.withLock({ $0?.call }) else { return }
        let wantsOld = options.contains(.old)
        let wantsNew = options.contains(.new)
        let change: QXObservedChange<Value>
        switch event {
        case .initial(let current):
            change = QXObservedChange(
                kind: .initial, isPrior: false, oldValue: nil,
                newValue: wantsNew ? current[keyPath: keyPath] : nil)
        case .prior(let old):
            change = QXObservedChange(
                kind: .setting, isPrior: true,
                oldValue: wantsOld ? old[keyPath: keyPath] : nil, newValue: nil)
        case .setting(let old, let new):
            change = QXObservedChange(
                kind: .setting, isPrior: false,
                oldValue: wantsOld ? old[keyPath: keyPath] : nil,
                newValue: wantsNew ? new[keyPath: keyPath] : nil)
        }
        changeHandler(object, change)
    }
}

/// A key-value observer seen without its value type: what an object's list stores.
protocol QXObserverDelivery<Object, Properties>: QXObserverActivity {
    associatedtype Object: AnyObject & Sendable
    associatedtype Properties: Sendable
    var options: QXObservingOptions { get }
    func deliver(_ object: Object, _ event: QXChangeEvent<Properties>)
}
