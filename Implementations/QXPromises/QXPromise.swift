public import Dispatch
import PromiseRuntime
import Synchronization

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
/// and `progress`, which anyone can read and observe but only the promise itself sets (it is not
/// a ``QXSettableObservable``). Resolving a promise with another promise makes it *observe that
/// promise's `state`*; when the state changes, the observer removes itself and either runs the
/// stored `thenBlock`/`catchBlock` (a link made by ``then(on:_:)-(DispatchQueue,_)``,
/// ``catch(on:_:)-(DispatchQueue,_)`` or ``finally(on:_:)-(DispatchQueue,_)``) or takes the same
/// outcome. Whatever a block returns resolves the link again: a promise is observed in turn, a
/// foreign `Thenable` is assimilated, anything else fulfils; a throw rejects.
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
/// no recursion. One lock per promise guards all of its state (the keys, their observers, the
/// blocks, keepAlive and the step kept for retry); every method may be called from any thread.
///
/// The keys follow the rules of ``QXObservationCenter``, with these differences:
/// - A promise settles once: `value` (or `error`) and `state` change together, in one step;
///   `.prior` observers are told before it, then observers of `value` or `error`, then of
///   `state`. An observer of a key the settlement changes, added by another thread while the
///   settlement is being told, joins it (told after the others), and so does a link made from
///   inside a handler on the settling thread, so links are told in the order they were made
///   (Promises/A+ 2.2.6).
/// - A key path that is none of the four keys (say `\.progress?.proportion`) is told every change,
///   as it may depend on any of them; the center matches key paths exactly.
/// - `progress` changes are told to a snapshot of its observers, as KVO does.
public final class QXPromise: QXObservable, QXObserverOwner {
    /// The observable keys.
    public struct Properties: Sendable {
        /// Pending, fulfilled or rejected; set once, with `value` or `error`.
        public var state: QXPromiseState = .pending
        /// The fulfilment value, once fulfilled.
        public var value: PromiseValue = nil
        /// The rejection error, once rejected.
        public var error: (any Error)? = nil
        /// The last progress reported by the work, or forwarded from the promise this one observes.
        public var progress: QXProgress? = nil
    }

    /// A key of ``Properties``, resolved once when an observer registers, so that telling a
    /// change costs no key-path comparison.
    enum Key: Sendable {
        case state, value, error, progress
        /// A key path that is none of the four (say, `\.progress?.proportion`): it may depend on
        /// any of them, so it is told every change.
        case derived

        init(_ keyPath: AnyKeyPath) {
            switch keyPath {
            case \Properties.state: self = .state
            case \Properties.value: self = .value
            case \Properties.error: self = .error
            case \Properties.progress: self = .progress
            default: self = .derived
            }
        }

        /// Whether the key changes when the promise settles with `outcome`: `state`, `value` on
        /// fulfilment, `error` on rejection, and derived key paths (which may depend on them).
        func changes(settlingWith outcome: QXOutcome) -> Bool {
            switch (self, outcome) {
            case (.state, _), (.derived, _), (.value, .fulfilled), (.error, .rejected): return true
            case (.progress, _), (.value, .rejected), (.error, .fulfilled): return false
            }
        }
    }

    /// The promise's whole state (see ``QXPromiseCore``).
    let core: PromiseMutex<QXPromiseCore>

    /// Where this promise runs its blocks, observes what it adopts and calls thenables.
    public let callbackQueue: DispatchQueue

    #if DEBUG
        /// Where a pending promise was made and whom to tell if nothing can settle it any more
        /// (``PendingPromiseLeakCheck``); debug builds only.
        private let leakTracker: PendingPromiseLeakTracker?
    #endif

    // MARK: - Creating promises

    /// A pending promise that refers to itself until it settles, in `stage`, with `settlers`
    /// things that can settle it.
    private init(pendingOn queue: DispatchQueue, stage: QXPromiseCore.Stage, settlers: Int32) {
        core = PromiseMutex(QXPromiseCore(stage: stage, settlers: settlers, keepsItselfAlive: true))
        callbackQueue = queue
        #if DEBUG
            leakTracker = PendingPromiseLeakCheck.track()
        #endif
        // keepAlive: the promise holds itself, as the original's `self.keepAlive = self` does; a
        // retain rather than a stored reference, so that no promise spends a word on it. The core
        // records it (`keepsItselfAlive`), and `letGoOfItself()` gives it back exactly once.
        _ = Unmanaged.passRetained(self)
    }

    /// loseControl: gives back the reference the promise holds to itself while pending, as a
    /// strong reference the caller frees (the promise may go with it).
    private func letGoOfItself() -> QXPromise {
        Unmanaged.passUnretained(self).takeRetainedValue()
    }

    /// A pending promise with one resolver (counted as its settler; the caller makes it).
    convenience init(pendingOn queue: DispatchQueue) {
        self.init(pendingOn: queue, stage: .waiting(nil, source: nil), settlers: 1)
    }

    /// A link: a promise that follows `source` and runs `blocks` when it settles. `source`
    /// counts as its settler until then.
    convenience init(linkOn queue: DispatchQueue, following source: QXPromise, blocks: QXBlocks) {
        self.init(pendingOn: queue, stage: .waiting(blocks, source: source), settlers: 1)
    }

    init(settled outcome: QXOutcome, on queue: DispatchQueue) {
        let stage: QXPromiseCore.Stage
        switch outcome {
        case .fulfilled(let value): stage = .fulfilled(value)
        case .rejected(let error): stage = .rejected(error, nil)
        }
        core = PromiseMutex(QXPromiseCore(stage: stage, settlers: 0, keepsItselfAlive: false))
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
        self.init(pendingOn: queue)
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
        let promise = QXPromise(pendingOn: queue)
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
    public var properties: Properties { core.withLock { $0.properties } }

    /// The current state.
    public var state: QXPromiseState { properties.state }

    /// The rejection error, or `nil` while pending or when fulfilled.
    public var error: (any Error)? { properties.error }

    /// The outcome once settled.
    package var outcome: QXOutcome? { core.withLock { $0.outcome } }

    /// The input the step's `thenBlock` last ran with, kept while the step has not fulfilled, so
    /// ``retry(_:on:)`` can run it again: the original's `valueKeptForRetry`. `nil` if the block
    /// has not run (or the step fulfilled); `.some(nil)` if it ran with `nil`.
    ///
    /// The cost: every `then` link whose block ran and failed keeps that block (and what it
    /// captures) and its input for as long as the link itself lives, whether or not a retry is
    /// attached, because a retry may be attached after the step failed. A settled link is held
    /// only by its users and, until their hop has run, by the links waiting for it, so this
    /// matters only for a failed link someone keeps.
    public var valueKeptForRetry: PromiseValue? {
        core.withLock { $0.retryStep.map { $0.input } }
    }

    /// How many observers the promise's keys have: the observations made through ``observe(_:options:changeHandler:)``
    /// still valid, and the promises and handlers waiting for its settlement (for tests and reports).
    public var observerCount: Int { core.withLock { $0.observerCount } }

    // MARK: - Observing the keys

    /// Starts observing the key at `keyPath`; see ``QXObservable/observe(_:options:changeHandler:)``.
    ///
    /// The key is resolved when the observer registers; a key path that is not one of the four
    /// keys (such as `\.progress?.proportion`) is told every change, as it may depend on any.
    public func observe<Value: Sendable>(
        _ keyPath: any KeyPath<Properties, Value> & Sendable,
        options: QXObservingOptions,
        changeHandler: @escaping @Sendable (QXPromise, QXObservedChange<Value>) -> Void
    ) -> QXObservation {
        let key = Key(keyPath)
        let observer = QXKeyValueObserver(keyPath: keyPath, options: options, changeHandler: changeHandler)
        let (initial, joinsSettlement, isEnded) = core.withLock { $0.registerKeyValue(key, observer) }
        let observation = QXObservation(observer: observer, owner: self)
        if options.contains(.initial) { observer.deliver(self, .initial(initial)) }
        if isEnded { observation.invalidate() }
        guard options.contains(.initial) else { return observation }
        // A settlement another thread is telling is told after the `.initial` notification: by
        // that thread if it is still telling, or here if it finished meanwhile.
        if joinsSettlement, !core.withLock({ $0.joinAfterInitial(.keyValue(key, observer)) }) {
            // Only a key the settlement changed joins (see `registerKeyValue`).
            observer.deliver(self, .setting(old: initial, new: properties))
        }
        return observation
    }

    /// The current value of the key at `keyPath`.
    public func observedValue<Value: Sendable>(_ keyPath: any KeyPath<Properties, Value> & Sendable) -> Value {
        properties[keyPath: keyPath]
    }

    func observerDidEnd() {
        let removed = core.withLock { $0.observerDidEnd() }
        withExtendedLifetime(removed) {}
    }

    // MARK: - The resolution procedure

    /// Resolves a claimed promise with `value`: the original's fulfilled block.
    ///
    /// - Parameter checkingCycle: Whether to check that observing a promise would not close a
    ///   cycle (``AdoptionCycle``); `false` only for a promise nothing can reach yet.
    func resolveClaimed(_ value: PromiseValue, checkingCycle: Bool = true) {
        // Most values are of a type seen before and found plain: no cast at all.
        if let value, qxPlainTypes.contains(type(of: value)) {
            settle(.fulfilled(value))
            return
        }
        if let promise = value as? QXPromise {
            // Itself, or a promise that waits for this one through the promises it follows.
            let closesCycle =
                checkingCycle
                && AdoptionCycle.wouldClose(adopting: promise, by: ObjectIdentifier(self)) { followed in
                    followed.core.withLock { $0.pendingSource }
                }
            guard !closesCycle else {
                // The block that returned this link can reach it, and a failed step keeps its
                // block for `retry`: kept, that block would hold the link for ever (a retain
                // cycle). Running it again could only return the same rejected link, so the step
                // is not kept (settled without it) and a retry passes the cycle error through.
                settle(.rejected(QXPromiseError.cycle), keepingStep: false)
                return
            }
            follow(promise)
        } else if let thenable = value as? any Thenable {
            assimilate(thenable)
        } else {
            if let value { qxPlainTypes.remember(type(of: value)) }
            settle(.fulfilled(value))
        }
    }

    /// Observes `source`'s `state` key; when it settles, takes the outcome on this promise's
    /// callback queue. The observation removes itself at the first settled state, and its
    /// `.initial` notification covers a source that settled already (the original's KVO missed
    /// it and left the promise pending forever).
    private func follow(_ source: QXPromise) {
        if core.withLock({ $0.follow(source) }) {
            forwardProgress(from: source)
        }
        source.addFollower(self)
    }

    /// Registers `follower` as an observer of this promise's `state` (counted as one of its
    /// settlers by the caller).
    func addFollower(_ follower: QXPromise) {
        switch core.withLock({ $0.register(.follower(follower)) }) {
        case .added: break
        case .settled(let outcome): follower.followedPromiseSettled(outcome)
        case .abandoned: follower.releaseSettler()
        }
    }

    /// The promise this one follows has settled (told on the settling thread): the hop to this
    /// promise's queue.
    private func followedPromiseSettled(_ outcome: QXOutcome) {
        callbackQueue.async { self.sourceDidSettle(outcome) }
    }

    /// Calls a thenable's `then` once, on the callback queue (a fresh stack, outside any lock); a
    /// `PropertyThenable` whose `then` holds no function fulfils with the thenable itself.
    private func assimilate(_ thenable: any Thenable) {
        core.withLock { $0.beginAssimilating() }
        let settler = QXSettler(self)
        callbackQueue.async {
            let call = thenable.thenOnce(
                resolvePromise: { value in settler.claim()?.resolveClaimed(value) },
                rejectPromise: { error in settler.claim()?.settle(.rejected(error)) }
            )
            // A `then` property that holds no function makes the thenable a plain value.
            if call == .thenIsNotAFunction { settler.claim()?.settle(.fulfilled(thenable)) }
        }
    }

    /// The observed promise settled: the body of the original's `observeValueForKeyPath`. Runs on
    /// the callback queue.
    private func sourceDidSettle(_ outcome: QXOutcome) {
        let (action, left) = core.withLock { $0.sourceSettled(outcome) }
        switch action {
        case .runThen(let thenBlock, let value): run { try thenBlock(value) }
        case .runCatch(let catchBlock, let error): run { try catchBlock(error) }
        case .adopt(let outcome): settle(outcome)
        case .none: break
        }
        // The blocks that did not run and the followed promise, freed outside any lock.
        withExtendedLifetime(left) {}
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

    /// Settles the promise and announces it through the observable keys, then loseControl: the
    /// promise lets go of itself.
    ///
    /// `value` or `error` and `state` change together; the observers of `value` or `error` are
    /// told first, then those of `state`, in registration order, on this thread. Observers that
    /// join meanwhile are told after them, in a loop (no recursion).
    ///
    /// - Parameter keepingStep: Whether a rejected step keeps its block and input for `retry`.
    func settle(_ outcome: QXOutcome, keepingStep: Bool = true) {
        var action = core.withLock { $0.settle(outcome, keepingStep: keepingStep, tellingPriors: true) }
        if case .tellPriors(let observers, let old) = action {
            // `.prior` observers are told before the keys change.
            for observer in observers { observer.deliver(self, .prior(old: old)) }
            action = core.withLock { $0.settle(outcome, keepingStep: keepingStep, tellingPriors: false) }
        }
        guard case .settled(let settlement) = action else { return }
        if settlement.hasKeyValueObservers {
            // Observers of `value` and `error` first, then the others; `tell` skips a key the
            // settlement did not change.
            for observer in settlement.observers where observer.observesValueOrError { tell(observer, settlement) }
            for observer in settlement.observers where !observer.observesValueOrError { tell(observer, settlement) }
        } else {
            for observer in settlement.observers { tell(observer, settlement) }
        }
        if settlement.isDelivering {
            while true {
                let joined = core.withLock { $0.takeJoined() }
                if joined.isEmpty { break }
                for observer in joined { tell(observer, settlement) }
            }
        }
        for observation in settlement.progressObservations { observation.invalidate() }
        // loseControl, after the announcement: the last reference to the promise may go here.
        let itself = settlement.releasesItself ? letGoOfItself() : nil
        withExtendedLifetime((settlement, itself)) {}
    }

    /// Tells one observer the settlement (an observer of `value`, `error`, `state` or a derived
    /// path the change of its key; `progress` did not change).
    private func tell(_ observer: QXPromiseObserver, _ settlement: QXPromiseCore.Settlement) {
        switch observer {
        case .follower(let follower): follower.followedPromiseSettled(settlement.outcome)
        case .handler(let handler): handler(settlement.outcome)
        case .keyValue(let key, let delivery):
            guard key.changes(settlingWith: settlement.outcome) else { return }
            delivery.deliver(self, Self.settlementEvent(settlement))
        }
    }

    private static func settlementEvent(_ settlement: QXPromiseCore.Settlement) -> QXChangeEvent<Properties> {
        var before = Properties()
        before.progress = settlement.progress
        var after = before
        switch settlement.outcome {
        case .fulfilled(let value):
            after.state = .fulfilled
            after.value = value
        case .rejected(let error):
            after.state = .rejected
            after.error = error
        }
        return .setting(old: before, new: after)
    }

    /// One thing that could settle this promise is gone or used up (a resolver freed, a followed
    /// promise or thenable that can no longer settle). When it was the last, nothing can settle
    /// the promise any more: it lets go of itself and ends every observation of its keys, which
    /// can never change again; the promises that followed it are told in turn.
    ///
    /// Why end the observations: an observer may hold something that holds this promise, such as
    /// a `retry` link, whose catch block refers to the step it observes; kept, that cycle would
    /// leak the rest of a dropped chain.
    func releaseSettler() {
        var released: [QXPromise] = [self]
        var letGo: [(QXPromiseCore.Abandonment, QXPromise?)] = []
        // A worklist, not recursion: the followers of an abandoned promise may be abandoned in
        // turn, one per link of a dropped chain, 100,000 of them.
        while let promise = released.popLast() {
            guard let abandonment = promise.core.withLock({ $0.removeSettler() }) else { continue }
            #if DEBUG
                promise.leakTracker?.reportGivenUp(promise)
            #endif
            abandonment.observers.forEach { observer in
                switch observer {
                case .follower(let follower): released.append(follower)
                case .handler: break
                case .keyValue(_, let delivery): _ = delivery.deactivate()
                }
            }
            for observation in abandonment.progressObservations { observation.invalidate() }
            letGo.append((abandonment, abandonment.releasesItself ? promise.letGoOfItself() : nil))
        }
        // Freeing them here would free the next link of a dropped chain from inside this
        // teardown, and so on, one nested teardown per link.
        releaseIteratively(consume letGo)
    }

    // MARK: - Observing settlement

    /// Calls `handler` once with the outcome when the promise settles (at once if it has), on the
    /// settling thread (or inside this call): an observation of the `state` key with `.initial`
    /// that ends at the first settled state. Never called if nothing can settle the promise.
    func whenSettled(_ handler: @escaping @Sendable (QXOutcome) -> Void) {
        switch core.withLock({ $0.register(.handler(handler)) }) {
        case .added, .abandoned: break
        case .settled(let outcome): handler(outcome)
        }
    }
}

/// The types QX's resolution procedure found plain (neither a ``QXPromise`` nor a `Thenable`):
/// their values fulfil without a cast (see `PlainTypeCache`).
let qxPlainTypes = PlainTypeCache()

/// Settles one promise: the original's `fullfilledblock` and `rejectBlock`, plus progress.
///
/// Copies share one underlying settler. When the last copy is gone while the promise is
/// unresolved, the promise lets go of itself. A resolver refers to its promise weakly: kept after
/// the promise settled, it does not keep it alive.
public struct QXResolver: Sendable {
    let settler: QXSettler

    /// A resolver for `promise`, which counted it as a settler when it was made.
    init(_ promise: QXPromise) {
        settler = QXSettler(promise)
    }

    /// Resolves the promise: a ``QXPromise`` is observed (resolving with the promise itself
    /// rejects with ``QXPromiseError/cycle``), a `Thenable` is assimilated,
    /// anything else fulfils. Only the first `fulfill` or `reject` counts.
    public func fulfill(_ value: PromiseValue) {
        settler.claim()?.resolveClaimed(value)
    }

    /// Rejects the promise. Only the first `fulfill` or `reject` counts.
    public func reject(_ error: any Error) {
        settler.claim()?.settle(.rejected(error))
    }

    /// Reports progress through the promise's observable `progress` key (see
    /// ``QXPromise/progress(on:_:)``), also after `fulfill` resolved it with a promise it now
    /// follows. Ignored once the promise is settled, and for a NaN proportion; the proportion is
    /// clamped to `0...1`.
    public func progress(_ proportion: Double, _ value: PromiseValue = nil) {
        settler.promise?.publishProgress(proportion, value)
    }
}

/// Something that can still settle a promise: a resolver, or the callbacks given to a thenable.
///
/// It counts as one of the promise's settlers until its first call uses it up (the promise
/// counted it when it was made). Freed unused while the promise is unresolved, it tells the
/// promise that one settler fewer is left. Weak: the promise's keepAlive is what holds it.
final class QXSettler: Sendable {
    weak let promise: QXPromise?
    /// Set by the first call.
    private let isUsed = Atomic<Bool>(false)

    init(_ promise: QXPromise) {
        self.promise = promise
    }

    deinit {
        if !isUsed.load(ordering: .acquiring) { promise?.releaseSettler() }
    }

    /// Uses the settler up: the promise, if this is the first call and nobody resolved it yet.
    func claim() -> QXPromise? {
        guard !isUsed.exchange(true, ordering: .acquiringAndReleasing), let promise else { return nil }
        return promise.core.withLock({ $0.claim() }) ? promise : nil
    }
}
