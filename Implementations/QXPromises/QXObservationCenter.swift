import PromiseInterface

/// The observable properties of one object and their observers: what KVO keeps for an
/// `NSObject` behind the scenes.
///
/// A ``QXObservable`` object owns one center, made with the properties' initial values. The center
/// is all the machinery: the object's ``QXObservable`` methods forward to it.
///
/// ## Threading
/// One lock (a `PromiseMutex`) guards the properties and the observer list. A
/// change stores the value and takes a snapshot of the observers under the lock, then delivers the
/// notifications after releasing it, in a loop over the snapshot; so handlers never run under the
/// lock, may re-enter the center, and an observer added from another thread is either in the
/// snapshot (and was registered, with its `.initial` value read, before the change) or sees the
/// new value in its `.initial` notification: it cannot miss the change.
public final class QXObservationCenter<Object: AnyObject & Sendable, Properties: Sendable>: Sendable {
    /// What one notification is about, before each observer picks out its own key path.
    enum Event {
        case initial(Properties)
        case prior(old: Properties)
        case setting(old: Properties, new: Properties)
    }

    /// One observer.
    struct Entry: Sendable {
        let keyPath: any AnyKeyPath & Sendable
        let options: QXObservingOptions
        let flag: QXObservationFlag
        /// Turns an event into the observer's typed change and calls its handler.
        let deliver: @Sendable (Object, Event) -> Void
    }

    struct Registry {
        var properties: Properties
        /// In registration order. Invalidated entries are skipped at once (their flag) and
        /// compacted away later, so removing an observer costs amortised O(1).
        var entries: [Entry] = []
        var inactiveCount = 0
        /// Set by ``QXObservationCenter/endObservations()``: the object will not change any more,
        /// so observers are no longer kept.
        var isClosed = false

        /// Counts one more invalidated entry; when they are more than half, compacts them away
        /// and returns them, to be freed after the lock (their handlers may hold anything,
        /// including tokens of this center, whose `deinit` takes the lock).
        mutating func noteInactive() -> [Entry] {
            inactiveCount += 1
            guard inactiveCount * 2 > entries.count else { return [] }
            inactiveCount = 0
            var kept: [Entry] = []
            var removed: [Entry] = []
            kept.reserveCapacity(entries.count)
            for entry in entries {
                if entry.flag.isActive { kept.append(entry) } else { removed.append(entry) }
            }
            entries = kept
            return removed
        }
    }

    /// Guards the properties and the observers.
    private let registry: PromiseMutex<Registry>

    /// Whether ``QXSettableObservable/setObserved(_:to:)`` may change the properties. `false` for
    /// the centers of objects that change their properties only themselves (a ``QXPromise``).
    public let acceptsOutsideChanges: Bool

    /// Makes a center holding `properties`, with no observers, for an object that lets any holder
    /// set them (a ``QXSettableObservable``).
    public init(_ properties: Properties) {
        registry = PromiseMutex(Registry(properties: properties))
        acceptsOutsideChanges = true
    }

    /// Makes a center whose properties only this module changes, through ``set(_:to:on:)``.
    init(sealed properties: Properties) {
        registry = PromiseMutex(Registry(properties: properties))
        acceptsOutsideChanges = false
    }

    /// A snapshot of every property.
    public var properties: Properties {
        registry.withLock { $0.properties }
    }

    /// The current value of one property.
    public func value<Value: Sendable>(at keyPath: any KeyPath<Properties, Value> & Sendable) -> Value {
        registry.withLock { $0.properties[keyPath: keyPath] }
    }

    /// How many observers are registered (for tests and reports).
    public var observerCount: Int {
        registry.withLock { registry in registry.entries.count { $0.flag.isActive } }
    }

    /// Registers an observer; see ``QXObservable/observe(_:options:changeHandler:)``.
    func addObserver<Value: Sendable>(
        of object: Object,
        _ keyPath: any KeyPath<Properties, Value> & Sendable,
        options: QXObservingOptions,
        changeHandler: @escaping @Sendable (Object, QXObservedChange<Value>) -> Void
    ) -> QXObservation {
        let flag = QXObservationFlag()
        let entry = Entry(keyPath: keyPath, options: options, flag: flag) { object, event in
            // Checked again at delivery: an observer removed while a change is being delivered
            // (by itself or by an earlier observer) must not be told any more.
            guard flag.isActive else { return }
            changeHandler(object, Self.change(at: keyPath, for: event, options: options))
        }
        let initial: Properties? = registry.withLock { registry in
            if registry.isClosed {
                // Nothing will be told to it: it ends at once (its `.initial` is still sent).
                _ = flag.deactivate()
            } else {
                registry.entries.append(entry)
            }
            return options.contains(.initial) ? registry.properties : nil
        }
        let observation = QXObservation(flag: flag) { [weak self] in self?.removeObserver() }
        if let initial { entry.deliver(object, .initial(initial)) }
        return observation
    }

    /// Sets one property and notifies its observers; see ``QXSettableObservable/setObserved(_:to:)``.
    ///
    /// With a `condition`, the value is stored only if the properties satisfy it, checked in the
    /// same critical section as the store (so no other change can come between the check and
    /// the store); `.prior` observers are told only if it held just before. Returns whether the
    /// value was stored.
    @discardableResult
    func set<Value: Sendable>(
        _ keyPath: any WritableKeyPath<Properties, Value> & Sendable,
        to value: Value,
        on object: Object,
        if condition: ((Properties) -> Bool)? = nil
    ) -> Bool {
        let anyKeyPath: AnyKeyPath = keyPath
        let priors: (Properties, [Entry])? = registry.withLock { registry in
            guard condition?(registry.properties) ?? true else { return nil }
            let observers = registry.entries.filter { $0.keyPath == anyKeyPath && $0.options.contains(.prior) }
            return observers.isEmpty ? nil : (registry.properties, observers)
        }
        if let (old, observers) = priors {
            for observer in observers { observer.deliver(object, .prior(old: old)) }
        }
        let change: (Properties, Properties, [Entry])? = registry.withLock { registry in
            guard condition?(registry.properties) ?? true else { return nil }
            let old = registry.properties
            registry.properties[keyPath: keyPath] = value
            return (old, registry.properties, registry.entries.filter { $0.keyPath == anyKeyPath })
        }
        guard let (old, new, observers) = change else { return false }
        for observer in observers { observer.deliver(object, .setting(old: old, new: new)) }
        return true
    }

    /// Ends every observation, now and to come, for an object whose properties will not change
    /// any more (a promise that nothing can settle). Returns the removed observers: the caller
    /// frees them after any lock, and where it likes (their handlers may hold anything, and
    /// freeing them may end other objects in turn). An observer added later gets its `.initial`
    /// notification and is not kept.
    ///
    /// Why: a handler may keep alive something that refers back to the observed object, and an
    /// observation that can never fire would hold that cycle forever.
    func endObservations() -> [Entry] {
        registry.withLock { registry in
            registry.isClosed = true
            registry.inactiveCount = 0
            // Deactivated under the lock, so the tokens' later `invalidate()` does not count them
            // again in `noteInactive()`.
            for entry in registry.entries { _ = entry.flag.deactivate() }
            defer { registry.entries = [] }
            return registry.entries
        }
    }

    private func removeObserver() {
        let removed = registry.withLock { $0.noteInactive() }
        withExtendedLifetime(removed) {}
    }

    private static func change<Value: Sendable>(
        at keyPath: KeyPath<Properties, Value>,
        for event: Event,
        options: QXObservingOptions
    ) -> QXObservedChange<Value> {
        let wantsOld = options.contains(.old)
        let wantsNew = options.contains(.new)
        switch event {
        case .initial(let current):
            return QXObservedChange(
                kind: .initial,
                isPrior: false,
                oldValue: nil,
                newValue: wantsNew ? current[keyPath: keyPath] : nil
            )
        case .prior(let old):
            return QXObservedChange(
                kind: .setting,
                isPrior: true,
                oldValue: wantsOld ? old[keyPath: keyPath] : nil,
                newValue: nil
            )
        case .setting(let old, let new):
            return QXObservedChange(
                kind: .setting,
                isPrior: false,
                oldValue: wantsOld ? old[keyPath: keyPath] : nil,
                newValue: wantsNew ? new[keyPath: keyPath] : nil
            )
        }
    }
}
