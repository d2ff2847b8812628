public import Dispatch
public import PromiseInterface

/// The state of a ``QXPromise``, its observable `state` key: the original's `QXPromiseState`.
public enum QXPromiseState: Sendable, Equatable {
    /// Not settled yet.
    case pending
    /// Settled with a value (the `value` key).
    case fulfilled
    /// Settled with an error (the `error` key).
    case rejected
}

/// A promise that chains by observing another promise's `state` key, as QXPromise does with KVO.
///
/// A promise is an observable object (``QXObservable``) with the keys `state`, `value`, `error`
/// and `progress`, which anyone can read and observe but only the promise itself sets (its center
/// refuses outside changes, and it is not a ``QXSettableObservable``). Resolving a promise with another promise makes it *observe that promise's
/// `state`*; when the state changes, the observer removes itself and either runs the stored
/// `thenBlock`/`catchBlock` (a link made by ``then(on:_:)-(DispatchQueue,_)``, ``catch(on:_:)-(DispatchQueue,_)`` or
/// ``finally(on:_:)-(DispatchQueue,_)``) or takes the same outcome. Whatever a block returns resolves the link
/// again: a promise is observed in turn, a foreign `Thenable` is assimilated,
/// anything else fulfils; a throw rejects.
///
/// ```swift
/// QXPromise { fulfill, reject in
///     api.fetchUser { user, error in error.map(reject) ?? fulfill(user) }
/// }
/// .then { user in api.contacts(of: user as! User) }   // a promise: observed in turn
/// .then { contacts in show(contacts) }
/// .catch { error in log(error); return nil }
/// ```
///
/// ## Lifetime
/// A pending promise keeps itself alive (the original's keepAlive) and lets go when it settles
/// (loseControl), so a chain runs to its end without anyone holding it. Unlike the original, it
/// also lets go when nothing can settle it any more (its resolver, the promise it observes and any
/// thenable it assimilates are all gone), so a dropped pending chain is freed instead of leaking;
/// such a promise also ends every observation of its keys, which can never change again.
///
/// ## Threading
/// Observation is synchronous, as KVO is: a promise's observers are told on the thread that
/// settled it. But an observer never runs a block there: it hands it to the promise's
/// ``callbackQueue`` (``defaultQueue``, the main queue, unless given), so blocks never run before
/// `then` returns (Promises/A+ 2.2.4) and a chain of any length runs one queue hop per link, with
/// no recursion. All state is guarded by locks; every method may be called from any thread.
public final class QXPromise: QXObservable {
    /// The observable keys.
    public struct Properties: Sendable {
        /// Pending, fulfilled or rejected; set once, after `value` or `error`.
        public var state: QXPromiseState = .pending
        /// The fulfilment value, once fulfilled.
        public var value: PromiseValue = nil
        /// The rejection error, once rejected.
        public var error: (any Error)? = nil
        /// The last progress reported by the work, or forwarded from the promise this one observes.
        public var progress: QXProgress? = nil
    }

    /// The observable keys and their observers.
    public let observationCenter: QXObservationCenter<QXPromise, Properties>

    /// Guards the non-observable bookkeeping: the stored blocks, the keepAlive reference, the
    /// settlers count and the observations to end on settling.
    let machine: PromiseMutex<QXPromiseStateMachine>

    /// Where this promise runs its blocks, observes what it adopts and calls thenables.
    public let callbackQueue: DispatchQueue

    #if DEBUG
        /// Where a pending promise was made and whom to tell if nothing can settle it any more
        /// (``PendingPromiseLeakCheck``); debug builds only.
        private let leakTracker: PendingPromiseLeakTracker?
    #endif

    // MARK: - Creating promises

    /// A pending promise that refers to itself until it settles.
    init(pendingOn queue: DispatchQueue, blocks: QXBlocks?) {
        observationCenter = QXObservationCenter(sealed: Properties())
        machine = PromiseMutex(QXPromiseStateMachine(pendingWith: blocks))
        callbackQueue = queue
        #if DEBUG
            leakTracker = PendingPromiseLeakCheck.track()
        #endif
        machine.withLock { $0.keepAlive = self }
    }

    init(settled outcome: QXOutcome, on queue: DispatchQueue) {
        var properties = Properties()
        switch outcome {
        case .fulfilled(let value):
            properties.value = value
            properties.state = .fulfilled
        case .rejected(let error):
            properties.error = error
            properties.state = .rejected
        }
        observationCenter = QXObservationCenter(sealed: properties)
        machine = PromiseMutex(QXPromiseStateMachine(settled: ()))
        callbackQueue = queue
        #if DEBUG
            leakTracker = nil
        #endif
    }

    /// Makes a promise and runs `work` at once, on the calling thread, as the original's
    /// `promise:` does.
    ///
    /// `work` gets the two functions that settle the promise. `fulfill` goes through the
    /// resolution procedure (a ``QXPromise`` is observed, a thenable assimilated); only the first
    /// call to either counts; a throw from `work` rejects. If `work` drops both functions without
    /// calling either, the promise stays pending and is freed with its last reference.
    ///
    /// - Parameters:
    ///   - queue: The promise's ``callbackQueue``.
    ///   - work: Starts the work and settles the promise, now or later, from any thread.
    public convenience init(
        on queue: DispatchQueue = defaultQueue,
        _ work: (
            _ fulfill: @escaping @Sendable (PromiseValue) -> Void,
            _ reject: @escaping @Sendable (any Error) -> Void
        ) throws -> Void
    ) {
        self.init(pendingOn: queue, blocks: nil)
        let resolver = QXResolver(self)
        do {
            try work(resolver.fulfill, resolver.reject)
        } catch {
            resolver.reject(error)
        }
    }

    /// Makes a promise from a completion-handler API: `work` runs at once, on the calling thread,
    /// with a handler that takes a `Result`.
    ///
    /// ```swift
    /// func fetchUser(_ id: Int, completion: @escaping @Sendable (Result<User, any Error>) -> Void)
    /// let user = QXPromise { fetchUser(42, completion: $0) }
    /// ```
    ///
    /// `.failure` rejects; `.success` fulfils through the resolution procedure, as `fulfill` does.
    /// Only the first call counts; a throw from `work` before it rejects.
    ///
    /// - Parameters:
    ///   - queue: The promise's ``callbackQueue``.
    ///   - work: Starts the work; it calls the handler later, from any thread.
    public convenience init<Value: Sendable>(
        on queue: DispatchQueue = defaultQueue,
        completion work: (_ completion: @escaping @Sendable (Result<Value, any Error>) -> Void) throws -> Void
    ) {
        self.init(on: queue) { fulfill, reject in
            try work { result in
                switch result {
                case .success(let value): fulfill(value)
                case .failure(let error): reject(error)
                }
            }
        }
    }

    /// `init(on:completion:)` for a handler in Objective-C's shape, a value or an
    /// error: an error that is not `nil` rejects, whatever the value; otherwise the value (`nil`
    /// included) fulfils.
    ///
    /// ```swift
    /// func fetchUser(_ id: Int, completion: @escaping @Sendable (User?, (any Error)?) -> Void)
    /// let user = QXPromise { fetchUser(42, completion: $0) }
    /// ```
    public convenience init<Value: Sendable>(
        on queue: DispatchQueue = defaultQueue,
        completion work: (_ completion: @escaping @Sendable (Value?, (any Error)?) -> Void) throws -> Void
    ) {
        self.init(on: queue) { fulfill, reject in
            try work { value, error in
                if let error { reject(error) } else { fulfill(value) }
            }
        }
    }

    /// Makes a pending promise and the resolver that settles it (and reports its progress).
    ///
    /// - Parameter queue: The promise's ``callbackQueue``.
    /// - Returns: The promise, and its resolver; when every copy of the resolver is gone while
    ///   the promise is pending, it stays pending and is freed with its last reference.
    public static func pending(on queue: DispatchQueue = defaultQueue) -> (promise: QXPromise, resolver: QXResolver) {
        let promise = QXPromise(pendingOn: queue, blocks: nil)
        return (promise, QXResolver(promise))
    }

    /// Makes a promise fulfilled with `value`, taken as is (not inspected for promises).
    public convenience init(fulfilledWith value: PromiseValue, on queue: DispatchQueue = defaultQueue) {
        self.init(settled: .fulfilled(value), on: queue)
    }

    /// Makes a promise rejected with `error`.
    public convenience init(rejectedWith error: any Error, on queue: DispatchQueue = defaultQueue) {
        self.init(settled: .rejected(error), on: queue)
    }

    // MARK: - Inspecting

    /// The observable keys at this moment.
    public var properties: Properties { observationCenter.properties }

    /// The current state.
    public var state: QXPromiseState { observedValue(\.state) }

    /// The rejection error, or `nil` while pending or when fulfilled.
    public var error: (any Error)? { observedValue(\.error) }

    /// The outcome once settled (read after the `state` key says so).
    var outcome: QXOutcome? {
        let properties = self.properties
        switch properties.state {
        case .pending: return nil
        case .fulfilled: return .fulfilled(properties.value)
        // `error` is stored before `state` in one promise's settle, and read here in one snapshot,
        // so a rejected state always comes with its error; the fallback only satisfies the type.
        case .rejected: return .rejected(properties.error ?? QXPromiseError.cycle)
        }
    }

    /// The input the step's `thenBlock` last ran with, kept while the step has not fulfilled, so
    /// ``retry(_:on:)`` can run it again: the original's `valueKeptForRetry`. `nil` if the block
    /// has not run (or the step fulfilled); `.some(nil)` if it ran with `nil`.
    ///
    /// The cost: every `then` link whose block ran and failed keeps that block (and what it
    /// captures) and its input for as long as the link itself lives, whether or not a retry is
    /// attached, because a retry may be attached after the step failed. A settled link is held
    /// only by its users (the links after it do not hold it), so this matters only for a failed
    /// link someone keeps.
    public var valueKeptForRetry: PromiseValue? {
        machine.withLock { $0.retryStep.map { $0.input } }
    }

    // MARK: - The resolution procedure

    /// Resolves a claimed promise with `value`: the original's fulfilled block.
    ///
    /// - Parameter checkingCycle: Whether to check that observing a promise would not close a
    ///   cycle (``AdoptionCycle``); `false` only for a promise nothing can reach yet.
    func resolveClaimed(_ value: PromiseValue, checkingCycle: Bool = true) {
        if let promise = value as? QXPromise {
            // Itself, or a promise that waits for this one through the promises it follows.
            let closesCycle =
                checkingCycle
                && AdoptionCycle.wouldClose(adopting: promise, by: ObjectIdentifier(self)) { followed in
                    followed.machine.withLock { $0.pendingSource }
                }
            guard !closesCycle else {
                // The block that returned this link can reach it, and a failed step keeps its
                // block for `retry`: kept, that block would hold the link for ever (a retain
                // cycle). Running it again could only return the same rejected link, so the
                // step is dropped (after the lock) and a retry passes the cycle error through.
                let step = machine.withLock { machine in
                    defer { machine.retryStep = nil }
                    return machine.retryStep
                }
                settle(.rejected(QXPromiseError.cycle))
                withExtendedLifetime(step) {}
                return
            }
            follow(promise)
        } else if let thenable = value as? any Thenable {
            assimilate(thenable)
        } else {
            settle(.fulfilled(value))
        }
    }

    /// Observes `source`'s `state` key; when it settles, hands the outcome to this promise on its
    /// callback queue. The observation removes itself after the first change, and the `.initial`
    /// notification covers a source that settled already (the original's KVO missed it and left
    /// the promise pending forever).
    private func follow(_ source: QXPromise) {
        if machine.withLock({ $0.follow(source) }) {
            forwardProgress(from: source)
        }
        let settler = QXSettler(self)
        source.whenSettled(on: callbackQueue) { outcome in
            settler.promise?.sourceDidSettle(outcome)
        }
    }

    /// Calls a thenable's `then` once, on the callback queue (a fresh stack, outside any lock).
    private func assimilate(_ thenable: any Thenable) {
        let settler = QXSettler(self)
        callbackQueue.async {
            thenable.thenOnce(
                resolvePromise: { value in settler.promise?.resolveClaimed(value) },
                rejectPromise: { error in settler.promise?.settle(.rejected(error)) }
            )
        }
    }

    /// The observed promise settled: the body of the original's `observeValueForKeyPath`. Runs on
    /// the callback queue.
    private func sourceDidSettle(_ outcome: QXOutcome) {
        guard let blocks = machine.withLock({ $0.takeBlocks() }) else {
            settle(outcome)
            return
        }
        switch outcome {
        case .fulfilled(let value):
            guard let thenBlock = blocks.thenBlock else {
                settle(outcome)
                return
            }
            machine.withLock { $0.retryStep = QXRetryStep(input: value, thenBlock: thenBlock) }
            run { try thenBlock(value) }
        case .rejected(let error):
            // Only the catch block decides; the original called the fulfil block after it.
            guard let catchBlock = blocks.catchBlock else {
                settle(outcome)
                return
            }
            run { try catchBlock(error) }
        }
    }

    private func run(_ block: () throws -> PromiseValue) {
        let result: PromiseValue
        do {
            result = try block()
        } catch {
            settle(.rejected(error))
            return
        }
        resolveClaimed(result)
    }

    /// Settles the promise and announces it through the observable keys: `value` or `error`
    /// first, then `state`, so an observer of `state` reads the outcome. Then loseControl: the
    /// promise lets go of itself.
    func settle(_ outcome: QXOutcome) {
        let isFulfilled: Bool
        if case .fulfilled = outcome { isFulfilled = true } else { isFulfilled = false }
        guard let release = machine.withLock({ $0.settle(fulfilled: isFulfilled) }) else { return }
        switch outcome {
        case .fulfilled(let value):
            observationCenter.set(\.value, to: value, on: self)
            observationCenter.set(\.state, to: .fulfilled, on: self)
        case .rejected(let error):
            observationCenter.set(\.error, to: error, on: self)
            observationCenter.set(\.state, to: .rejected, on: self)
        }
        for observation in release.observations { observation.invalidate() }
        // loseControl, after the announcement: the last reference to the promise may go here.
        withExtendedLifetime(release) {}
    }

    /// The last settler is gone while the promise is unsettled: nothing can settle it any more.
    ///
    /// Its keys can never change again, so it also ends every observation of them: an observer
    /// of `state` (a following link, an `all`) can never fire, and it may hold something that
    /// holds this promise, such as a `retry` link, whose catch block refers to the step it
    /// observes; kept, that cycle would leak the rest of a dropped chain.
    func settlerReleased() {
        guard let release = machine.withLock({ $0.removeSettler() }) else { return }
        #if DEBUG
            leakTracker?.reportGivenUp(self)
        #endif
        for observation in release.observations { observation.invalidate() }
        let endedObservers = observationCenter.endObservations()
        // Freeing the promise or its observers here would free the next link of a dropped chain
        // from inside this teardown, and so on, one nested teardown per link: a dropped
        // 100,000-link chain would overflow the stack.
        releaseIteratively((consume release, consume endedObservers))
    }

    // MARK: - Observing settlement

    /// Calls `handler` once with the outcome when the promise settles (at once if it has).
    ///
    /// Built on the `state` key: an observation with `.initial` and `.new` that removes itself at
    /// the first settled state. With a queue, `handler` is dispatched onto it; without, it runs on
    /// the settling thread (or inside this call, if already settled).
    func whenSettled(on queue: DispatchQueue?, _ handler: @escaping @Sendable (QXOutcome) -> Void) {
        let once = QXOneShot(handler)
        // Joins a `state` change this thread is delivering: a link made from inside a handler
        // while the promise settles must not overtake links made before it (Promises/A+ 2.2.6).
        let observation = observationCenter.addObserver(
            of: self, \.state, options: [.initial, .new], joiningOnDeliveringThread: true
        ) { promise, change in
            guard let state = change.newValue, state != .pending, let handler = once.fire(),
                let outcome = promise.outcome
            else { return }
            if let queue {
                queue.async { handler(outcome) }
            } else {
                handler(outcome)
            }
        }
        once.keep(observation)
    }
}

/// Settles one promise: the original's `fullfilledblock` and `rejectBlock`, plus progress.
///
/// Copies share one underlying settler. When the last copy is gone while the promise is
/// unsettled, the promise lets go of itself.
public struct QXResolver: Sendable {
    let settler: QXSettler

    init(_ promise: QXPromise) {
        settler = QXSettler(promise)
    }

    /// Resolves the promise: a ``QXPromise`` is observed (resolving with the promise itself
    /// rejects with ``QXPromiseError/cycle``), a `Thenable` is assimilated,
    /// anything else fulfils. Only the first `fulfill` or `reject` counts.
    public func fulfill(_ value: PromiseValue) {
        fulfill(value, checkingCycle: true)
    }

    /// ``fulfill(_:)``, optionally without the cycle check (for a promise nothing can reach yet).
    func fulfill(_ value: PromiseValue, checkingCycle: Bool) {
        guard let promise = settler.promise, promise.machine.withLock({ $0.claim() }) else { return }
        promise.resolveClaimed(value, checkingCycle: checkingCycle)
    }

    /// Rejects the promise. Only the first `fulfill` or `reject` counts.
    public func reject(_ error: any Error) {
        guard let promise = settler.promise, promise.machine.withLock({ $0.claim() }) else { return }
        promise.settle(.rejected(error))
    }

    /// Reports progress through the promise's observable `progress` key (see
    /// ``QXPromise/progress(on:_:)``). Ignored once the promise is settled, and for a NaN
    /// proportion; the proportion is clamped to `0...1`.
    public func progress(_ proportion: Double, _ value: PromiseValue = nil) {
        settler.promise?.publishProgress(proportion, value)
    }
}

/// Something that can still settle a promise. Holds it weakly: the promise's keepAlive is what
/// holds it; the count of live settlers tells it when nothing can settle it any more.
final class QXSettler: Sendable {
    weak let promise: QXPromise?

    init(_ promise: QXPromise) {
        self.promise = promise
        promise.machine.withLock { $0.addSettler() }
    }

    deinit {
        promise?.settlerReleased()
    }
}

/// A self-removing observation: the first `fire()` gets the payload and ends the observation;
/// later ones get `nil`. The payload is dropped when fired, so an ended observation that the
/// center has not compacted away yet holds nothing.
final class QXOneShot<Payload: Sendable>: Sendable {
    private struct State {
        var payload: Payload?
        var observation: QXObservation?
        var fired = false
    }

    /// Guards the payload, the observation and whether it fired.
    private let state: PromiseMutex<State>

    init(_ payload: Payload) {
        state = PromiseMutex(State(payload: payload))
    }

    func fire() -> Payload? {
        let (payload, observation): (Payload?, QXObservation?) = state.withLock { state in
            guard !state.fired else { return (nil, nil) }
            state.fired = true
            defer {
                state.payload = nil
                state.observation = nil
            }
            return (state.payload, state.observation)
        }
        observation?.invalidate()
        return payload
    }

    /// Keeps the observation until the first `fire()`; ends it at once if that already happened
    /// (the `.initial` notification fires inside `observe`, before the observation is returned).
    func keep(_ observation: QXObservation) {
        let fired = state.withLock { state in
            if !state.fired { state.observation = observation }
            return state.fired
        }
        if fired { observation.invalidate() }
    }
}
