/// The pure state machine behind ``FBLPromise``: what the original keeps in `_state`, `_value`,
/// `_error` and `_observers` under `@synchronized(self)`.
///
/// The original's fourth field, `_pendingObjects`, only keeps google's Swift wrapper objects alive
/// while their Objective-C promise is pending; here every observer closure captures what it needs
/// strongly, so there is nothing to keep.
///
/// Every transition is a mutating method that returns an *action*. The promise runs the machine
/// under its lock only to compute that action, and performs the side effects (leaving the dispatch
/// group, calling observers) after the lock is released, so no user code runs under the lock.
@usableFromInline
struct FBLPromiseStateMachine<Value: Sendable>: Sendable {
    @usableFromInline typealias Observer = @Sendable (Result<Value, any Error>) -> Void

    /// What the caller of ``settle(_:)`` must do after releasing the lock.
    @usableFromInline enum SettleAction {
        /// The promise was pending and is now settled: call the observers in registration order,
        /// then, while ``nextObservers()`` hands out more, those too; then leave the dispatch
        /// group.
        case notify(ObserverList<Value>, Result<Value, any Error>)
        /// The promise had already settled; this later attempt is ignored (first settle wins).
        case ignore
    }

    /// What the caller of ``observe(_:)`` must do after releasing the lock.
    @usableFromInline enum ObserveAction {
        /// The observer was stored and will be called when the promise settles (or, if it has
        /// settled and is still handing its observers out, right after those, by the settling
        /// thread).
        case stored
        /// The promise had already settled: call the observer now with this outcome.
        case callNow(Result<Value, any Error>)
    }

    /// `nil` while pending; the outcome once settled (it never changes again).
    @usableFromInline private(set) var result: Result<Value, any Error>?
    /// While pending, every observer registered so far; while handing out, those registered since
    /// the settling thread last took them.
    @usableFromInline var observers = ObserverList<Value>()
    /// Whether the settling thread is still calling the observers it took (outside the lock).
    ///
    /// An observer registered meanwhile must not be called at once: it would overtake observers
    /// registered before it that the settling thread has not reached yet, and callbacks
    /// registered one after another would run out of order (Promises/A+ 2.2.6). It is queued
    /// instead, and the settling thread calls it after the others (``nextObservers()``).
    @usableFromInline var isHandingOut = false
    /// The first promise this one adopted: the link a cycle check follows while this one is
    /// pending (``AdoptionCycle``). Weak, so it never keeps a dropped chain alive.
    @usableFromInline weak var following: FBLPromise<Value>?

    /// A pending machine.
    @inlinable
    init() {}

    /// An already-settled machine.
    @inlinable
    init(settled result: Result<Value, any Error>) {
        self.result = result
    }

    @inlinable
    var isPending: Bool { result == nil }

    @inlinable
    mutating func settle(_ outcome: Result<Value, any Error>) -> SettleAction {
        guard result == nil else { return .ignore }
        result = outcome
        let toNotify = observers
        observers = ObserverList()
        // With no observer to call, there is nothing a later one could overtake.
        isHandingOut = !toNotify.isEmpty
        return .notify(toNotify, outcome)
    }

    /// Called by the settling thread after it called the observers it took: those registered
    /// meanwhile, to call next, or `nil` if there are none (the promise has then handed out every
    /// observer, and later ones are called at once by whoever registers them).
    @inlinable
    mutating func nextObservers() -> ObserverList<Value>? {
        guard !observers.isEmpty else {
            isHandingOut = false
            return nil
        }
        let next = observers
        observers = ObserverList()
        return next
    }

    /// Called when the promise is freed: the observers a pending promise still holds, or `nil`
    /// if it had settled.
    @inlinable
    mutating func abandon() -> ObserverList<Value>? {
        guard result == nil else { return nil }
        let abandoned = observers
        observers = ObserverList()
        return abandoned
    }

    @inlinable
    mutating func observe(_ observer: @escaping Observer) -> ObserveAction {
        if let result, !isHandingOut { return .callNow(result) }
        observers.append(observer)
        return .stored
    }

}

/// Observers in registration order. The first one is stored inline: most promises have exactly
/// one observer (the next link of a chain), and that case then needs no array allocation.
@usableFromInline
struct ObserverList<Value: Sendable>: Sendable {
    @usableFromInline typealias Observer = FBLPromiseStateMachine<Value>.Observer

    @usableFromInline var first: Observer?
    @usableFromInline var rest: [Observer] = []

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { first == nil }

    @inlinable
    mutating func append(_ observer: @escaping Observer) {
        if first == nil {
            first = observer
        } else {
            rest.append(observer)
        }
    }

    /// Calls every observer in registration order. A loop, not recursion: an observer that settles
    /// another promise only schedules work, so deep chains do not grow the stack.
    @inlinable
    func notify(_ result: Result<Value, any Error>) {
        guard let first else { return }
        first(result)
        for observer in rest { observer(result) }
    }
}
