import PromiseRuntime

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The observable properties of one object and their observers: what KVO keeps for an
/// `NSObject` behind the scenes.
///
/// A ``QXSettableObservable`` object (one of yours) owns one center, made with the properties'
/// initial values. The center is all the machinery: the object's observable methods forward to
/// it. (A ``QXPromise`` has no center: it keeps its four keys and their observers in its own
/// state, under its one lock, with the same notification rules.)
///
/// ## Threading
/// One lock (a `PromiseMutex`) guards the properties and the observer list. A
/// change stores the value and takes a snapshot of the observers under the lock, then delivers the
/// notifications after releasing it, in a loop over the snapshot; so handlers never run under the
/// lock and may re-enter the center.
///
/// An observer added from another thread cannot miss a change, and is never told it ahead of an
/// observer registered before it: added before the change was stored, it is in the snapshot;
/// added while the change is still being delivered, it joins that delivery and the changing
/// thread tells it the change after the others (its `.initial` notification, sent before
/// `observe` returns, carries the value from before the change); added after the delivery ended,
/// its `.initial` notification carries the new value. An observer added from inside a handler, on the thread that is
/// delivering the change, is told of later changes only, as with KVO. Only the newest change of a
/// key path is joined; when several threads change one key path at once, an observer added
/// meanwhile may be told their changes in any order, and one before its `.initial`
/// notification, as with KVO.
public final class QXObservationCenter<Object: AnyObject & Sendable, Properties: Sendable>: QXObserverOwner {
    typealias Event = QXChangeEvent<Properties>

    /// One observer, with the key path it observes.
    struct Entry: Sendable {
        let keyPath: any AnyKeyPath & Sendable
        let observer: any QXObserverDelivery<Object, Properties>

        var options: QXObservingOptions { observer.options }
        var isActive: Bool { observer.isActive }

        func deliver(_ object: Object, _ event: Event) { observer.deliver(object, event) }
    }

    /// A change being delivered outside the lock, and the observers that joined it meanwhile.
    struct Delivery: Sendable {
        let id: Int
        /// The thread delivering the change: an observer it adds (from inside a handler) does
        /// not join, it is told of later changes only.
        let thread: QXThreadID
        let keyPath: any AnyKeyPath & Sendable
        let old: Properties
        let new: Properties
        /// Observers of `keyPath` added since the snapshot, in registration order: the changing
        /// thread tells them after the snapshot's observers.
        var joined: [Entry] = []
        /// A later change of the same key path has begun: an observer added now reads the value
        /// after that one, so it has nothing to learn from this change and does not join it.
        var isSuperseded = false
    }

    struct Registry {
        var properties: Properties
        /// In registration order. Invalidated entries are skipped at once (their flag) and
        /// compacted away later, so removing an observer costs amortised O(1).
        var entries: [Entry] = []
        /// The changes being delivered now, oldest first (one per changing thread). Nearly always
        /// empty or one long.
        var deliveries: [Delivery] = []
        var nextDeliveryID = 0
        var inactiveCount = 0

        /// Starts delivering a change of `keyPath` to `observers`; returns its ID, or `nil` when
        /// there is nobody to tell (nobody can then join it either: an observer added from now on
        /// reads the new value).
        mutating func beginDelivery(
            of keyPath: any AnyKeyPath & Sendable, old: Properties, observers: [Entry]
        ) -> Int? {
            guard !observers.isEmpty else { return nil }
            let id = nextDeliveryID
            nextDeliveryID &+= 1
            for index in deliveries.indices where deliveries[index].keyPath == keyPath {
                deliveries[index].isSuperseded = true
            }
            deliveries.append(Delivery(id: id, thread: .current, keyPath: keyPath, old: old, new: properties))
            return id
        }

        /// The observers that joined delivery `id` since the last call, to tell next; when none
        /// did, the delivery ends and this returns an empty list.
        mutating func takeJoined(_ id: Int) -> [Entry] {
            guard let index = deliveries.firstIndex(where: { $0.id == id }) else { return [] }
            let joined = deliveries[index].joined
            if joined.isEmpty {
                deliveries.remove(at: index)
            } else {
                deliveries[index].joined = []
            }
            return joined
        }

        /// The newest change of `keyPath`, if another thread is still delivering it, and the value
        /// an observer added now must see first:
        /// from before that change, or the current one.
        func deliveryUnderWay(
            of keyPath: AnyKeyPath
        ) -> (initial: Properties, changes: [Delivery]) {
            guard !deliveries.isEmpty else { return (properties, []) }
            let thread = QXThreadID.current
            guard
                let newest = deliveries.last(where: { $0.keyPath == keyPath && !$0.isSuperseded }),
                newest.thread != thread
            else { return (properties, []) }
            return (newest.old, [newest])
        }

        /// Adds `entry` to each of `changes` still under way; returns the changes of those that
        /// ended meanwhile, which the caller tells the observer itself (their changing threads
        /// have told every observer registered before it).
        mutating func enter(_ entry: Entry, into changes: [Delivery]) -> [Event] {
            var ended: [Event] = []
            for change in changes {
                if let index = deliveries.firstIndex(where: { $0.id == change.id }) {
                    deliveries[index].joined.append(entry)
                } else {
                    ended.append(.setting(old: change.old, new: change.new))
                }
            }
            return ended
        }

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
                if entry.isActive { kept.append(entry) } else { removed.append(entry) }
            }
            entries = kept
            return removed
        }
    }

    /// Guards the properties and the observers.
    private let registry: PromiseMutex<Registry>

    /// Makes a center holding `properties`, with no observers.
    public init(_ properties: Properties) {
        registry = PromiseMutex(Registry(properties: properties))
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
        registry.withLock { registry in registry.entries.count { $0.isActive } }
    }

    /// Registers an observer; see ``QXObservable/observe(_:options:changeHandler:)``.
    func addObserver<Value: Sendable>(
        of object: Object,
        _ keyPath: any KeyPath<Properties, Value> & Sendable,
        options: QXObservingOptions,
        changeHandler: @escaping @Sendable (Object, QXObservedChange<Value>) -> Void
    ) -> QXObservation {
        let observer = QXKeyValueObserver(keyPath: keyPath, options: options, changeHandler: changeHandler)
        let entry = Entry(keyPath: keyPath, observer: observer)
        let anyKeyPath: AnyKeyPath = keyPath
        let wantsInitial = options.contains(.initial)
        let (initial, underWay): (Properties, [Delivery]) = registry.withLock { registry in
            registry.entries.append(entry)
            let (initial, underWay) = registry.deliveryUnderWay(of: anyKeyPath)
            guard wantsInitial else {
                // No `.initial` notification to send first: it joins the changes under way now.
                _ = registry.enter(entry, into: underWay)
                return (initial, [])
            }
            return (initial, underWay)
        }
        let observation = QXObservation(observer: observer, owner: self)
        guard wantsInitial else { return observation }
        entry.deliver(object, .initial(initial))
        // A change under way is told after the `.initial` notification: by its changing thread
        // if it is still delivering, or here if that finished meanwhile.
        if !underWay.isEmpty {
            let ended = registry.withLock { $0.enter(entry, into: underWay) }
            for event in ended { entry.deliver(object, event) }
        }
        return observation
    }

    /// Sets one property and notifies its observers; see ``QXSettableObservable/setObserved(_:to:)``.
    func set<Value: Sendable>(
        _ keyPath: any WritableKeyPath<Properties, Value> & Sendable,
        to value: Value,
        on object: Object
    ) {
        let anyKeyPath: AnyKeyPath = keyPath
        let priors: (Properties, [Entry])? = registry.withLock { registry in
            let observers = registry.entries.filter { $0.keyPath == anyKeyPath && $0.options.contains(.prior) }
            return observers.isEmpty ? nil : (registry.properties, observers)
        }
        if let (old, observers) = priors {
            for observer in observers { observer.deliver(object, .prior(old: old)) }
        }
        let (old, new, observers, delivery): (Properties, Properties, [Entry], Int?) = registry.withLock { registry in
            let old = registry.properties
            registry.properties[keyPath: keyPath] = value
            let observers = registry.entries.filter { $0.keyPath == anyKeyPath }
            let delivery = registry.beginDelivery(of: keyPath, old: old, observers: observers)
            return (old, registry.properties, observers, delivery)
        }
        var batch = observers
        while !batch.isEmpty {
            for observer in batch { observer.deliver(object, .setting(old: old, new: new)) }
            // Observers that joined while these were told come next; none: the delivery ends.
            guard let delivery else { break }
            batch = registry.withLock { $0.takeJoined(delivery) }
        }
    }

    func observerDidEnd() {
        let removed = registry.withLock { $0.noteInactive() }
        withExtendedLifetime(removed) {}
    }
}

/// Identifies a thread, to tell a call made from inside a handler (on the delivering thread) from
/// one made by another thread.
struct QXThreadID: Equatable, Sendable {
    private let raw: UInt

    /// No thread (no pthread has this identifier).
    static let none = QXThreadID(raw: 0)

    /// The calling thread.
    static var current: QXThreadID {
        QXThreadID(raw: bits(of: pthread_self()))
    }

    // `pthread_t` is an unsigned integer on glibc, a typed pointer on Darwin and an opaque
    // pointer on musl: one overload each, all compiled everywhere, and no `#if`.
    private static func bits(of thread: UInt) -> UInt { thread }
    private static func bits<Pointee>(of thread: UnsafeMutablePointer<Pointee>) -> UInt { UInt(bitPattern: thread) }
    private static func bits(of thread: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: thread)) }
}
