public import PromiseRuntime

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

    /// Pending with the observers registered so far, or settled.
    ///
    /// One enum rather than an optional outcome, an observer list, a hand-out flag and a weak
    /// reference side by side: each field lives only in the cases that need it, and invalid
    /// combinations (observers kept after the hand-out, a followed promise once settled) cannot be
    /// represented. It also made every promise about 24 bytes smaller (measured with `compare`: a
    /// pending promise with one `then`, two promises and an observer, 226 -> 180 bytes).
    @usableFromInline enum State: Sendable {
        /// Pending, with the observers registered so far and the first promise this one adopted:
        /// the link a cycle check follows while this one is pending (``AdoptionCycle``).
        ///
        /// The followed promise is held through a box allocated on adoption, not by a `weak`
        /// payload: a weak reference cannot be copied as plain bytes, and with one in a case every
        /// copy of the state went through the runtime's generic value witnesses (measured: a chain
        /// link about 10 % slower).
        case pending(ObserverList<Value>, following: FBLFollowedPromise<Value>?)
        /// Settled, and the settling thread is still calling the observers it took (outside the
        /// lock). An observer registered meanwhile must not be called at once: it would overtake
        /// observers registered before it that the settling thread has not reached yet, and
        /// callbacks registered one after another would run out of order (Promises/A+ 2.2.6). It
        /// is queued instead, and the settling thread calls it after the others
        /// (``nextObservers()``).
        ///
        /// Two cases, for a value and for an error, rather than one holding a `Result`, whose tag
        /// byte would make every promise 8 bytes larger.
        case handingOutValue(Value, queued: ObserverList<Value>)
        case handingOutError(any Error, queued: ObserverList<Value>)
        /// Settled, every observer handed out: later observers are called at once.
        case fulfilled(Value)
        case rejected(any Error)
    }

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

    @usableFromInline private(set) var state: State

    /// A pending machine.
    @inlinable
    init() {
        state = .pending(ObserverList(), following: nil)
    }

    /// An already-settled machine.
    @inlinable
    init(settled result: Result<Value, any Error>) {
        switch result {
        case .success(let value): state = .fulfilled(value)
        case .failure(let error): state = .rejected(error)
        }
    }

    /// `nil` while pending; the outcome once settled (it never changes again).
    @inlinable
    var result: Result<Value, any Error>? {
        switch state {
        case .pending: return nil
        case .handingOutValue(let value, _), .fulfilled(let value): return .success(value)
        case .handingOutError(let error, _), .rejected(let error): return .failure(error)
        }
    }

    @inlinable
    var isPending: Bool {
        if case .pending = state { return true }
        return false
    }

    /// The promise this one adopted first, while this one is pending.
    @inlinable
    var following: FBLPromise<Value>? {
        guard case .pending(_, let following) = state else { return nil }
        return following?.promise
    }

    /// Records that this promise adopted `promise`, unless it still follows one it adopted before
    /// (one freed meanwhile no longer counts, as with the weak field this replaced) or has settled.
    @inlinable
    mutating func follow(_ promise: FBLPromise<Value>) {
        guard case .pending(let observers, let following) = state, following?.promise == nil else { return }
        state = .pending(observers, following: FBLFollowedPromise(promise))
    }

    @inlinable
    mutating func settle(_ outcome: Result<Value, any Error>) -> SettleAction {
        guard case .pending(let observers, _) = state else { return .ignore }
        if observers.isEmpty {
            // With no observer to call, there is nothing a later one could overtake.
            self = FBLPromiseStateMachine(settled: outcome)
        } else {
            switch outcome {
            case .success(let value): state = .handingOutValue(value, queued: ObserverList())
            case .failure(let error): state = .handingOutError(error, queued: ObserverList())
            }
        }
        return .notify(observers, outcome)
    }

    /// Called by the settling thread after it called the observers it took: those registered
    /// meanwhile, to call next, or `nil` if there are none (the promise has then handed out every
    /// observer, and later ones are called at once by whoever registers them).
    @inlinable
    mutating func nextObservers() -> ObserverList<Value>? {
        switch state {
        case .handingOutValue(let value, let queued):
            state = queued.isEmpty ? .fulfilled(value) : .handingOutValue(value, queued: ObserverList())
            return queued.isEmpty ? nil : queued
        case .handingOutError(let error, let queued):
            state = queued.isEmpty ? .rejected(error) : .handingOutError(error, queued: ObserverList())
            return queued.isEmpty ? nil : queued
        case .pending, .fulfilled, .rejected:
            return nil
        }
    }

    /// Called when the promise is freed: the observers a pending promise still holds, or `nil`
    /// if it had settled.
    @inlinable
    mutating func abandon() -> ObserverList<Value>? {
        guard case .pending(let observers, _) = state else { return nil }
        state = .pending(ObserverList(), following: nil)
        return observers
    }

    @inlinable
    mutating func observe(_ observer: @escaping Observer) -> ObserveAction {
        switch state {
        case .pending(var observers, let following):
            // Out of the enum before appending, so an array of observers is uniquely referenced
            // and grows in place instead of being copied.
            state = .pending(ObserverList(), following: following)
            observers.append(FBLObserver(observer))
            state = .pending(observers, following: following)
            return .stored
        case .handingOutValue(let value, var queued):
            state = .handingOutValue(value, queued: ObserverList())
            queued.append(FBLObserver(observer))
            state = .handingOutValue(value, queued: queued)
            return .stored
        case .handingOutError(let error, var queued):
            state = .handingOutError(error, queued: ObserverList())
            queued.append(FBLObserver(observer))
            state = .handingOutError(error, queued: queued)
            return .stored
        case .fulfilled(let value):
            return .callNow(.success(value))
        case .rejected(let error):
            return .callNow(.failure(error))
        }
    }
}

/// Observers in registration order, the first one inline: most promises have exactly one (the
/// next link of a chain), which then needs no array.
@usableFromInline
typealias ObserverList<Value: Sendable> = InlineFirstList<FBLObserver<Value>>

/// One observer in an ``ObserverList``.
///
/// A struct, not the bare closure: a closure stored as a generic list's element is reabstracted
/// to the list's generic calling convention, one thunk allocation per observer (the allocation
/// budget tests count it). In a struct the closure keeps its own convention.
@frozen @usableFromInline
struct FBLObserver<Value: Sendable>: Sendable {
    @usableFromInline let notify: FBLPromiseStateMachine<Value>.Observer

    @inlinable
    init(_ notify: @escaping FBLPromiseStateMachine<Value>.Observer) {
        self.notify = notify
    }
}

/// The promise a pending promise adopted first, weakly: a cycle check's link must never keep a
/// dropped chain alive. A class, so the state holds a plain reference (see
/// ``FBLPromiseStateMachine/State/pending(_:following:)``).
@usableFromInline
final class FBLFollowedPromise<Value: Sendable>: Sendable {
    @usableFromInline weak let promise: FBLPromise<Value>?

    @inlinable
    init(_ promise: FBLPromise<Value>) {
        self.promise = promise
    }
}
