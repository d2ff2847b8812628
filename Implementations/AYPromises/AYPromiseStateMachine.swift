import PromiseRuntime

/// The outcome a settled ``AYPromise`` hands to its handlers.
@usableFromInline package typealias AYOutcome = Result<PromiseValue, any Error>

/// A handler piped onto a promise: called once, with the outcome, on the settling thread and
/// outside the lock. Handlers only schedule work: they dispatch a block onto a queue, or record an
/// `all`/`race` input under the combinator's lock and, when that decides it, dispatch the settling
/// of the combined promise. None settles another promise on the settling thread, so running them
/// in a loop never recurses into another promise's handlers.
@usableFromInline typealias AYHandler = @Sendable (AYOutcome) -> Void

/// The pure state machine behind ``AYPromise``: what the original keeps in `state`, `value` and
/// `handlers`, but with every read and write inside one lock.
///
/// The original checks `state` and appends to `handlers` outside its barrier queue, so a handler
/// piped while another thread settles can land in an array that has already been taken (the
/// handler is never called) or mutate it while it is being enumerated. Here each transition is a
/// mutating method that returns an *action*; ``AYPromise`` runs the transition under its lock and
/// performs the action (calling handlers) after releasing it.
struct AYPromiseStateMachine {
    /// Pending with the handlers piped so far, or settled.
    enum State {
        /// Pending, with the handlers piped so far and the promise this one adopted, if any: the
        /// link a cycle check follows (``AdoptionCycle``). Kept in this case, not beside the
        /// state, because only a pending promise needs it: it then costs no bytes (the case is
        /// smaller than `handingOut`).
        case pending(AYHandlerList, following: FollowedPromise<AYPromise>?)
        /// Settled, and the settling thread is still running the handlers it took (outside the
        /// lock). A handler piped meanwhile must not run at once: it would overtake handlers piped
        /// before it that the settling thread has not reached yet, and blocks chained one after
        /// another would run out of order (Promises/A+ 2.2.6). It waits in `queued` instead, and
        /// the settling thread runs it after the others (``nextHandlers()``).
        ///
        /// Two cases, for a value and for an error, rather than one holding an ``AYOutcome``:
        /// `Result` adds a tag byte to the 32-byte value, which, padded to the next field's
        /// alignment, would make every promise a word larger.
        case handingOutValue(PromiseValue, queued: AYHandlerList)
        case handingOutError(any Error, queued: AYHandlerList)
        case fulfilled(PromiseValue)
        case rejected(any Error)
    }

    /// What the caller of ``settle(_:)`` must do after releasing the lock.
    enum SettleAction {
        /// The promise was pending and is now settled: call these handlers with the outcome,
        /// then, while ``nextHandlers()`` hands out more, those too.
        case runHandlers(AYHandlerList, AYOutcome)
        /// The promise had already settled; this attempt is ignored (the first settle wins).
        case ignore
    }

    /// What the caller of ``pipe(_:)`` must do after releasing the lock.
    enum PipeAction {
        /// The handler was stored; it runs when the promise settles (or, if it has settled and is
        /// still handing its handlers out, right after those, on the settling thread).
        case stored
        /// The promise has settled: call the handler now with this outcome.
        case runNow(AYOutcome)
    }

    private(set) var state: State

    /// The promise this one adopted, while it is pending.
    var pendingFollowing: AYPromise? {
        guard case .pending(_, let following) = state else { return nil }
        return following?.promise
    }

    /// Records that this promise adopted `promise` (nothing if it has settled meanwhile).
    mutating func follow(_ promise: AYPromise) {
        guard case .pending(let handlers, _) = state else { return }
        state = .pending(handlers, following: FollowedPromise(promise))
    }

    /// A pending machine with no handlers.
    init() {
        state = .pending(AYHandlerList(), following: nil)
    }

    /// An already-settled machine.
    init(settled outcome: AYOutcome) {
        switch outcome {
        case .success(let value): state = .fulfilled(value)
        case .failure(let error): state = .rejected(error)
        }
    }

    /// The outcome, or `nil` while pending.
    var outcome: AYOutcome? {
        switch state {
        case .pending: return nil
        case .handingOutValue(let value, _): return .success(value)
        case .handingOutError(let error, _): return .failure(error)
        case .fulfilled(let value): return .success(value)
        case .rejected(let error): return .failure(error)
        }
    }

    /// Settles a pending machine and hands its handlers out, emptied from the state, so a settled
    /// promise keeps nothing downstream alive (the original never empties its handler array).
    mutating func settle(_ outcome: AYOutcome) -> SettleAction {
        guard case .pending(let handlers, _) = state else { return .ignore }
        if handlers.isEmpty {
            // No handler to run, so none a later one could overtake.
            self = AYPromiseStateMachine(settled: outcome)
        } else {
            state = .handingOut(outcome, queued: AYHandlerList())
        }
        return .runHandlers(handlers, outcome)
    }

    /// Called by the settling thread after it ran the handlers it took: those piped meanwhile, to
    /// run next, or `nil` if there are none (the promise is then settled for good, and later
    /// handlers run at once on the thread that pipes them).
    mutating func nextHandlers() -> AYHandlerList? {
        guard let (outcome, queued) = state.handingOut else {
            if case .pending = state {
                preconditionFailure("nextHandlers() before settle(_:): only the settling thread hands out handlers")
            }
            return nil  // settled with no handler to hand out: the settling thread's loop ends
        }
        if queued.isEmpty {
            self = AYPromiseStateMachine(settled: outcome)
            return nil
        }
        state = .handingOut(outcome, queued: AYHandlerList())
        return queued
    }

    /// Stores a handler while pending (or queues it behind the handlers being handed out); once
    /// settled for good, tells the caller to run it at once.
    mutating func pipe(_ handler: @escaping AYHandler) -> PipeAction {
        switch state {
        case .pending(var handlers, let following):
            // Take the list out of the enum before appending, so the array is uniquely referenced
            // and appending does not copy it.
            state = .pending(AYHandlerList(), following: following)
            handlers.append(AYPipedHandler(handler))
            state = .pending(handlers, following: following)
            return .stored
        case .handingOutValue(let value, var queued):
            state = .handingOutValue(value, queued: AYHandlerList())
            queued.append(AYPipedHandler(handler))
            state = .handingOutValue(value, queued: queued)
            return .stored
        case .handingOutError(let error, var queued):
            state = .handingOutError(error, queued: AYHandlerList())
            queued.append(AYPipedHandler(handler))
            state = .handingOutError(error, queued: queued)
            return .stored
        case .fulfilled(let value):
            return .runNow(.success(value))
        case .rejected(let error):
            return .runNow(.failure(error))
        }
    }

    /// Called when the promise is freed: the handlers a pending promise still holds (they keep the
    /// next links of its chain alive), or `nil` if it had settled.
    mutating func abandon() -> AYHandlerList? {
        guard case .pending(let handlers, _) = state else {
            if state.handingOut != nil {
                preconditionFailure("a promise freed while handing out its handlers: the settling thread must hold it")
            }
            return nil
        }
        state = .pending(AYHandlerList(), following: nil)
        return handlers
    }
}

extension AYPromiseStateMachine.State {
    /// The state of a promise settled with `outcome` whose settling thread is handing out its
    /// handlers.
    static func handingOut(_ outcome: AYOutcome, queued: AYHandlerList) -> Self {
        switch outcome {
        case .success(let value): return .handingOutValue(value, queued: queued)
        case .failure(let error): return .handingOutError(error, queued: queued)
        }
    }

    /// The outcome and the handlers queued meanwhile, while handing out.
    var handingOut: (AYOutcome, AYHandlerList)? {
        switch self {
        case .handingOutValue(let value, let queued): return (.success(value), queued)
        case .handingOutError(let error, let queued): return (.failure(error), queued)
        default: return nil
        }
    }
}

/// Handlers in the order they were piped, the first one inline: most promises have exactly one
/// (the next link of a chain), which then needs no array.
typealias AYHandlerList = InlineFirstList<AYPipedHandler>

/// One handler in an ``AYHandlerList``.
///
/// A struct, not the bare closure: a closure stored as a generic list's element is reabstracted
/// to the list's generic calling convention, one thunk allocation per handler (the allocation
/// budget tests count it). In a struct the closure keeps its own convention.
struct AYPipedHandler: Sendable {
    let run: AYHandler

    init(_ run: @escaping AYHandler) {
        self.run = run
    }
}
