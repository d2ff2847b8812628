/// An object whose properties can be observed by key path, in the manner of Key-Value Observing.
///
/// Linux Foundation has no KVO, so this is the project's own small replacement, and nothing in it
/// is specific to promises. A conforming object keeps its observable properties in one `Sendable`
/// struct (``ObservedProperties``) inside an ``QXObservationCenter``; anyone can read them through
/// ``observedValue(_:)`` and ``observe(_:options:changeHandler:)`` one of them.
///
/// This protocol is read-and-observe only. Who may *change* the properties is the object's
/// choice: an object that lets any holder set them adopts ``QXSettableObservable``, which adds
/// ``QXSettableObservable/setObserved(_:to:)``; ``QXPromise`` does not, so its `state`, `value`,
/// `error` and `progress` keys change only through its state machine (nobody can forge an
/// outcome).
///
/// ```swift
/// final class Download: QXSettableObservable {
///     struct Properties: Sendable { var bytes = 0 }
///     let observationCenter = QXObservationCenter<Download, Properties>(Properties())
/// }
///
/// let download = Download()
/// let token = download.observe(\.bytes, options: [.initial, .old, .new]) { download, change in
///     print(change.oldValue ?? 0, "->", change.newValue ?? 0)
/// }
/// download.setObserved(\.bytes, to: 512)   // prints "0 -> 512" before returning
/// token.invalidate()
/// ```
///
/// ## Threading
/// Like KVO, notifications are synchronous: each change is delivered on the thread that made it,
/// before the change (``QXSettableObservable/setObserved(_:to:)``) returns, to the observers of
/// that key path in registration order. The center's lock is never held while a handler runs, so
/// handlers may read and change the object, add observers, and invalidate any observation (their
/// own included). Two threads that change the object at once each deliver their own change; a
/// handler that must not run concurrently with itself has to serialise on its own.
public protocol QXObservable: AnyObject, Sendable {
    /// The struct that holds every observable property.
    associatedtype ObservedProperties: Sendable

    /// Where the properties and their observers live.
    var observationCenter: QXObservationCenter<Self, ObservedProperties> { get }
}

extension QXObservable {
    /// Starts observing the property at `keyPath`.
    ///
    /// - Parameters:
    ///   - keyPath: The observed property, such as `\.state`.
    ///   - options: What to deliver: `.new` and `.old` put those values in each change; `.initial`
    ///     sends one notification with the current value at once, before this method returns;
    ///     `.prior` adds a notification before each change.
    ///   - changeHandler: Called synchronously, on the changing thread, with the object and the
    ///     change. It is never called after the returned observation is invalidated.
    /// - Returns: The observation. Keep it: it is invalidated when it is freed, as
    ///   `NSKeyValueObservation` is.
    public func observe<Value: Sendable>(
        _ keyPath: any KeyPath<ObservedProperties, Value> & Sendable,
        options: QXObservingOptions = [.new],
        changeHandler: @escaping @Sendable (Self, QXObservedChange<Value>) -> Void
    ) -> QXObservation {
        observationCenter.addObserver(of: self, keyPath, options: options, changeHandler: changeHandler)
    }

    /// The current value of the property at `keyPath`.
    public func observedValue<Value: Sendable>(_ keyPath: any KeyPath<ObservedProperties, Value> & Sendable) -> Value {
        observationCenter.value(at: keyPath)
    }
}

/// An observable object whose properties any holder may set: the observer side of
/// ``QXObservable`` plus ``setObserved(_:to:)``.
///
/// Adopt it for your own observable classes. Its center must be one made with the public
/// ``QXObservationCenter/init(_:)``: the centers of objects that keep setting to themselves (a
/// ``QXPromise``) refuse outside changes, so even a conformance added to such a type from outside
/// cannot change its keys (setting traps with a clear message).
public protocol QXSettableObservable: QXObservable {}

extension QXSettableObservable {
    /// Sets the property at `keyPath` and notifies its observers before returning.
    ///
    /// Observers with `.prior` are told first, then the value is stored, then every observer of
    /// `keyPath` is told, in registration order, on the calling thread.
    ///
    /// - Parameters:
    ///   - keyPath: The property to change.
    ///   - value: Its new value.
    /// - Precondition: The center accepts outside changes (it was made with
    ///   ``QXObservationCenter/init(_:)``).
    public func setObserved<Value: Sendable>(
        _ keyPath: any WritableKeyPath<ObservedProperties, Value> & Sendable,
        to value: Value
    ) {
        precondition(
            observationCenter.acceptsOutsideChanges,
            "\(Self.self)'s observed properties are set only by the object itself"
        )
        observationCenter.set(keyPath, to: value, on: self)
    }
}

/// What an observer asks to be told: KVO's `NSKeyValueObservingOptions`.
public struct QXObservingOptions: OptionSet, Sendable {
    /// The options as bits.
    public let rawValue: Int

    /// Makes options from their raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Each change carries the new value.
    public static let new = QXObservingOptions(rawValue: 1 << 0)
    /// Each change carries the old value.
    public static let old = QXObservingOptions(rawValue: 1 << 1)
    /// One notification with the current value is sent at once, from `observe`.
    public static let initial = QXObservingOptions(rawValue: 1 << 2)
    /// A notification is also sent before each change (``QXObservedChange/isPrior``).
    public static let prior = QXObservingOptions(rawValue: 1 << 3)
}

/// One notification: KVO's change dictionary, typed.
///
/// Which values are present follows KVO: an initial notification carries `newValue` (if `.new` was
/// asked for) and never `oldValue`; a prior notification carries `oldValue` (if `.old` was asked
/// for) and never `newValue`; a change carries whichever of the two were asked for.
public struct QXObservedChange<Value: Sendable>: Sendable {
    /// Why the observer is told.
    public enum Kind: Sendable, Equatable {
        /// The `.initial` notification sent from `observe`.
        case initial
        /// The property is being set (or, with ``QXObservedChange/isPrior``, is about to be).
        case setting
    }

    /// Why the observer is told.
    public let kind: Kind
    /// Whether this is the notification sent before the change (`.prior`).
    public let isPrior: Bool
    /// The value before the change, if `.old` was asked for.
    public let oldValue: Value?
    /// The value after the change (or the current one, for `.initial`), if `.new` was asked for.
    public let newValue: Value?

    /// Makes a change (the center makes them; public for tests of custom observables).
    public init(kind: Kind, isPrior: Bool, oldValue: Value?, newValue: Value?) {
        self.kind = kind
        self.isPrior = isPrior
        self.oldValue = oldValue
        self.newValue = newValue
    }
}
