public import PromiseRuntime

/// The state machine behind ``FBLPromise``: what the original keeps in `_state`, `_value`, `_error`
/// and `_observers` under `@synchronized(self)`, as a settle-once machine with an ordered hand-out:
/// pending with the observers registered so far, then settled once, for good.
///
/// The original's fourth field, `_pendingObjects`, only keeps google's Swift wrapper objects alive
/// while their Objective-C promise is pending; here every observer closure captures what it needs
/// strongly, so there is nothing to keep.
///
/// Every transition is a mutating method that returns an *action*. A promise runs the machine
/// under its lock only to compute that action, and performs the side effects (calling callbacks)
/// after releasing it, so no user code runs under the lock. The settling thread calls the
/// callbacks it took, then those registered meanwhile (``nextCallbacks()``), in a loop, never
/// recursively: callbacks run in registration order (Promises/A+ 2.2.6), and a long chain does not
/// grow the stack.
///
/// ```swift
/// let action = machine.withLock { $0.settle(outcome) }
/// guard case .handOut(var callbacks, let outcome) = action else { return }  // settled before
/// while true {
///     callbacks.forEach { $0.run(outcome) }
///     guard let next = machine.withLock({ $0.nextCallbacks() }) else { break }
///     callbacks = next
/// }
/// ```
///
/// An impossible transition stops the process with a message that names the rule it breaks.
@usableFromInline
struct FBLPromiseStateMachine<Value: Sendable>: Sendable {
    /// The promise this one adopted first, typed `any AnyObject & Sendable`, not
    /// `FBLPromise<Value>`: a promise's `deinit` runs unspecialised and looks up its state's type to
    /// destroy it, and with `FBLPromise<Value>` in that type it would look up the promise's class
    /// too, one more generic-metadata lookup per freed promise. Only
    /// ``FBLPromise/resolve(_:on:)-(FBLPromise<Value>,_)`` records one, always an
    /// `FBLPromise<Value>`.
    @usableFromInline typealias Followed = any AnyObject & Sendable

    /// The callbacks of one promise, in registration order, the first inline: most promises have
    /// exactly one (the next link of a chain), which then needs no array.
    @usableFromInline typealias Callbacks = InlineFirstList<FBLObserverCallback<Value>>

    /// Pending, handing out, or settled.
    ///
    /// One enum rather than an optional outcome, a callback list, a hand-out flag and a link side
    /// by side: each field lives only in the cases that need it, and combinations that must not
    /// happen (callbacks kept after the hand-out, a followed promise once settled) cannot be
    /// represented.
    @usableFromInline
    enum State: Sendable {
        /// Pending, with the callbacks registered so far and the first promise this one adopted:
        /// the link a cycle check follows while this one is pending (``AdoptionCycle``).
        case pending(Callbacks, following: FollowedPromise<Followed>?)
        /// Settled, and the settling thread is still calling the callbacks it took (outside the
        /// lock). A callback registered meanwhile is queued, not called at once: it would overtake
        /// callbacks registered before it that the settling thread has not reached yet.
        ///
        /// Two cases, for a value and for an error, rather than one holding a `Result`: the tag
        /// byte a `Result` adds to its payload, padded to the next field's alignment, would make
        /// every promise a word larger.
        case handingOutValue(Value, queued: Callbacks)
        case handingOutError(any Error, queued: Callbacks)
        /// Settled, every callback handed out: later ones are called at once.
        case fulfilled(Value)
        case rejected(any Error)
    }

    /// What the caller of ``settle(_:)`` must do after releasing the lock.
    @usableFromInline
    enum SettleAction {
        /// The promise was pending and is now settled: call these callbacks in order with the
        /// outcome, then those ``nextCallbacks()`` hands out, until it hands out none.
        case handOut(Callbacks, Result<Value, any Error>)
        /// The promise had already settled; this later attempt is ignored (the first settle wins).
        case ignore
    }

    /// What the caller of ``register(_:)`` must do after releasing the lock.
    @usableFromInline
    enum RegisterAction {
        /// The callback was stored; the settling thread will call it.
        case stored
        /// The promise had settled and handed out every callback: call this one now.
        case callNow(Result<Value, any Error>)
    }

    /// The state; only the transitions below change it.
    @usableFromInline var storage: State

    /// A pending machine.
    @inlinable
    init() {
        storage = .pending(Callbacks(), following: nil)
    }

    /// A machine settled with `outcome` from the start.
    @inlinable
    init(settled outcome: Result<Value, any Error>) {
        switch outcome {
        case .success(let value): storage = .fulfilled(value)
        case .failure(let error): storage = .rejected(error)
        }
    }

    /// `nil` while pending; the outcome once settled (it never changes again).
    @inlinable
    var result: Result<Value, any Error>? {
        switch storage {
        case .pending: return nil
        case .handingOutValue(let value, _), .fulfilled(let value): return .success(value)
        case .handingOutError(let error, _), .rejected(let error): return .failure(error)
        }
    }

    @inlinable
    var isPending: Bool {
        if case .pending = storage { return true }
        return false
    }

    /// The promise this one adopted first, while this one is pending and that one still exists.
    @inlinable
    var following: Followed? {
        guard case .pending(_, let following) = storage else { return nil }
        return following?.promise
    }

    /// Records that this promise adopted `promise`, unless it still follows one it adopted before
    /// (one freed meanwhile no longer counts) or has settled.
    @inlinable
    mutating func follow(_ promise: Followed) {
        guard case .pending(let callbacks, let following) = storage, following?.promise == nil else { return }
        storage = .pending(callbacks, following: FollowedPromise(promise))
    }

    /// Settles the machine with `outcome` if it is pending.
    @inlinable
    mutating func settle(_ outcome: Result<Value, any Error>) -> SettleAction {
        guard case .pending = storage else { return .ignore }
        // Moved out of the state, not copied: a copy of the callbacks retains each one's context.
        guard case .pending(let callbacks, _) = take() else { preconditionFailure("checked pending above") }
        if callbacks.isEmpty {
            // With no callback to call, there is nothing a later one could overtake.
            self = FBLPromiseStateMachine(settled: outcome)
        } else {
            switch outcome {
            case .success(let value): storage = .handingOutValue(value, queued: Callbacks())
            case .failure(let error): storage = .handingOutError(error, queued: Callbacks())
            }
        }
        return .handOut(callbacks, outcome)
    }

    /// The state, moved out; a pending state with no callbacks is left in its place.
    @inlinable
    mutating func take() -> State {
        var state = State.pending(Callbacks(), following: nil)
        swap(&state, &storage)
        return state
    }

    /// Called by the settling thread after it called the callbacks it took: those registered
    /// meanwhile, to call next, or `nil` when there are none (every callback has then been handed
    /// out, and later ones are called at once by whoever registers them).
    @inlinable
    mutating func nextCallbacks() -> Callbacks? {
        switch take() {
        case .handingOutValue(let value, let queued):
            storage = queued.isEmpty ? .fulfilled(value) : .handingOutValue(value, queued: Callbacks())
            return queued.isEmpty ? nil : queued
        case .handingOutError(let error, let queued):
            storage = queued.isEmpty ? .rejected(error) : .handingOutError(error, queued: Callbacks())
            return queued.isEmpty ? nil : queued
        case .fulfilled(let value):
            // Settled with no callback to hand out: the settling thread's loop ends here.
            storage = .fulfilled(value)
            return nil
        case .rejected(let error):
            storage = .rejected(error)
            return nil
        case .pending:
            preconditionFailure("nextCallbacks() before settle(_:): only the settling thread hands out callbacks")
        }
    }

    /// Registers `callback`: stored while pending or handing out, to call now once settled.
    @inlinable
    mutating func register(_ callback: FBLObserverCallback<Value>) -> RegisterAction {
        switch storage {
        case .fulfilled(let value):
            return .callNow(.success(value))
        case .rejected(let error):
            return .callNow(.failure(error))
        case .pending, .handingOutValue, .handingOutError:
            break
        }
        // Moved out of the state before appending, so the list's array is uniquely referenced and
        // grows in place instead of being copied.
        switch take() {
        case .pending(var callbacks, let following):
            callbacks.append(callback)
            storage = .pending(callbacks, following: following)
        case .handingOutValue(let value, var queued):
            queued.append(callback)
            storage = .handingOutValue(value, queued: queued)
        case .handingOutError(let error, var queued):
            queued.append(callback)
            storage = .handingOutError(error, queued: queued)
        case .fulfilled, .rejected:
            preconditionFailure("checked settled above")
        }
        return .stored
    }

    /// Called when the promise is freed: the callbacks a pending promise still holds, to release
    /// outside the lock, or `nil` once settled (a promise is freed only after its hand-out ended,
    /// since the settling thread holds it while handing out).
    @inlinable
    mutating func abandon() -> Callbacks? {
        switch storage {
        case .pending(let callbacks, _):
            storage = .pending(Callbacks(), following: nil)
            return callbacks
        case .fulfilled, .rejected:
            return nil
        case .handingOutValue, .handingOutError:
            preconditionFailure("a promise freed while handing out its callbacks: the settling thread must hold it")
        }
    }
}

/// One observer of an ``FBLPromiseStateMachine``.
///
/// A struct, not the bare closure: a closure stored as a generic list's element is reabstracted to
/// the list's generic calling convention, one thunk allocation per callback. In a struct the
/// closure keeps its own convention.
@usableFromInline
struct FBLObserverCallback<Value: Sendable>: Sendable {
    @usableFromInline let run: @Sendable (Result<Value, any Error>) -> Void

    @inlinable
    init(_ run: @escaping @Sendable (Result<Value, any Error>) -> Void) {
        self.run = run
    }
}
