/// An object whose properties can be observed by key path, in the manner of Key-Value Observing.
///
/// Linux Foundation has no KVO, so this is the project's own small replacement, and nothing in it
/// is specific to promises. An observable object keeps its observable properties in one `Sendable`
/// struct (``ObservedProperties``); anyone can read them through ``observedValue(_:)`` and
/// ``observe(_:options:changeHandler:)`` one of them.
///
/// This protocol is read-and-observe only. Who may *change* the properties is the object's
/// choice: an object that lets any holder set them adopts ``QXSettableObservable``, which keeps
/// the properties in a ``QXObservationCenter``, implements both methods and adds
/// ``QXSettableObservable/setObserved(_:to:)``. ``QXPromise`` adopts only this protocol, so its
/// `state`, `value`, `error` and `progress` keys change only through its state machine (nobody
/// can forge an outcome).
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
/// before the change returns, to the observers of that key path in registration order. No lock
/// is held while a handler runs, so handlers may read and change the object, add observers, and
/// invalidate any observation (their own included). Two threads that change the object at once
/// each deliver their own change; a handler that must not run concurrently with itself has to
/// serialise on its own.
public protocol QXObservable: AnyObject, Sendable {
    /// The struct that holds every observable property.
    associatedtype ObservedProperties: Sendable

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
    func observe<Value: Sendable>(
        _ keyPath: any KeyPath<ObservedProperties, Value> & Sendable,
        options: QXObservingOptions,
        changeHandler: @escaping @Sendable (Self, QXObservedChange<Value>) -> Void
    ) -> QXObservation

    /// The current value of the property at `keyPath`.
    func observedValue<Value: Sendable>(_ keyPath: any KeyPath<ObservedProperties, Value> & Sendable) -> Value
}

extension QXObservable {
    /// ``observe(_:options:changeHandler:)`` with `.new`, KVO's default.
    public func observe<Value: Sendable>(
        _ keyPath: any KeyPath<ObservedProperties, Value> & Sendable,
        changeHandler: @escaping @Sendable (Self, QXObservedChange<Value>) -> Void
    ) -> QXObservation {
        observe(keyPath, options: [.new], changeHandler: changeHandler)
    }
}

/// An observable object whose properties any holder may set: your own observable classes.
///
/// Adopting it takes one stored property, the ``observationCenter`` that holds the properties and
/// their observers; ``QXObservable/observe(_:options:changeHandler:)``,
/// ``QXObservable/observedValue(_:)`` and ``setObserved(_:to:)`` come with it.
public protocol QXSettableObservable: QXObservable {
    /// The observed properties: those the center holds (inferred from ``observationCenter``).
    associatedtype ObservedProperties = StoredProperties
    /// The struct the center holds.
    associatedtype StoredProperties: Sendable

    /// Where the properties and their observers live.
    var observationCenter: QXObservationCenter<Self, StoredProperties> { get }
}

extension QXSettableObservable where ObservedProperties == StoredProperties {
    /// Starts observing the property at `keyPath`; see ``QXObservable/observe(_:options:changeHandler:)``.
    public func observe<Value: Sendable>(
        _ keyPath: any KeyPath<ObservedProperties, Value> & Sendable,
        options: QXObservingOptions,
        changeHandler: @escaping @Sendable (Self, QXObservedChange<Value>) -> Void
    ) -> QXObservation {
        observationCenter.addObserver(of: self, keyPath, options: options, changeHandler: changeHandler)
    }

    /// The current value of the property at `keyPath`.
    public func observedValue<Value: Sendable>(_ keyPath: any KeyPath<ObservedProperties, Value> & Sendable) -> Value {
        observationCenter.value(at: keyPath)
    }

    /// Sets the property at `keyPath` and notifies its observers before returning.
    ///
    /// Observers with `.prior` are told first, then the value is stored, then every observer of
    /// `keyPath` is told, in registration order, on the calling thread.
    ///
    /// - Parameters:
    ///   - keyPath: The property to change.
    ///   - value: Its new value.
    public func setObserved<Value: Sendable>(
        _ keyPath: any WritableKeyPath<ObservedProperties, Value> & Sendable,
        to value: Value
    ) {
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
