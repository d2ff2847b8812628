import PromiseRuntime

/// A `then` block: maps a value to the next promise's value, a promise to observe, or a throw.
public typealias QXThenBlock = @Sendable (PromiseValue) throws -> PromiseValue

/// A `catch` block: maps an error to the next promise's value, a promise to observe, or a throw.
public typealias QXCatchBlock = @Sendable (any Error) throws -> PromiseValue

/// How a promise ended: what its observable `state`, `value` and `error` say once settled.
package enum QXOutcome: Sendable {
    case fulfilled(PromiseValue)
    case rejected(any Error)
}

/// The blocks a `then`/`catch`/`finally` link runs when the promise it observes settles.
struct QXBlocks: Sendable {
    let thenBlock: QXThenBlock?
    let catchBlock: QXCatchBlock?
}

/// The input and block of a step that ran, kept so the step can be run again (`retry`).
struct QXRetryStep: Sendable {
    let input: PromiseValue
    let thenBlock: QXThenBlock
}

/// One observer of a promise's keys, in the form its key was resolved to at registration.
///
/// The module's own observations are observations of the `state` key with `.initial` that end at
/// the first settled state (the design's mechanism); they are stored typed, so telling them costs
/// no key-path work and no token: a follower is the observing promise itself, a handler one
/// closure. Observations made through ``QXPromise/observe(_:options:changeHandler:)`` keep their
/// key path, resolved to a ``QXPromise/Key``.
enum QXPromiseObserver: Sendable {
    /// A promise following this one (a link, or a promise resolved with this one): told the
    /// outcome, it hops to its own callback queue. It counts as one of the follower's settlers
    /// until then.
    case follower(QXPromise)
    /// Called with the outcome on the settling thread (`whenSettled`).
    case handler(@Sendable (QXOutcome) -> Void)
    /// An observation made through `observe`: told each change of its key.
    case keyValue(QXPromise.Key, any QXObserverDelivery<QXPromise, QXPromise.Properties>)

    /// Whether it observes only until the promise settles (the module's own observations).
    var endsAtSettlement: Bool {
        if case .keyValue = self { return false }
        return true
    }

    var isActive: Bool {
        if case .keyValue(_, let observer) = self { return observer.isActive }
        return true
    }

    /// Whether it is an `observe` observation of `value` or `error`, told before the others.
    var observesValueOrError: Bool {
        if case .keyValue(let key, _) = self { return key == .value || key == .error }
        return false
    }
}

/// A promise's observers in registration order, the first stored inline: a promise with one
/// `then` (the common case) stores its observer without an array.
typealias QXObserverList = InlineFirstList<QXPromiseObserver>

/// What few promises need: progress, and observers that registered while the settlement was
/// being told. Allocated at first use, so that the others (nearly all) do not carry it. Only
/// touched under the promise's lock, as part of its ``QXPromiseCore``.
final class QXPromiseRareState {
    /// The last progress report (the `progress` key).
    var report: QXProgress?
    /// Whether progress reported upstream is forwarded to this promise.
    var isForwarded = false
    /// Observations of other promises' `progress`, ended when this promise settles.
    var observations: [QXObservation] = []
    /// Observers registered while the settlement is told, in order: the settling thread tells
    /// them after the others, so a link made meanwhile never overtakes an earlier one.
    var joined: [QXPromiseObserver] = []
}

/// The whole state of one ``QXPromise``, guarded by its one lock: the observable keys, their
/// observers and the design's bookkeeping (blocks, keepAlive, the step kept for retry).
///
/// Every transition is a mutating method that returns what the caller must do after releasing the
/// lock, so no observer, block or release runs under it.
struct QXPromiseCore {
    /// Where the promise is in its life. Each case holds only what that stage needs, so a settled
    /// promise cannot still hold blocks or follow a source.
    enum Stage {
        /// Pending and not resolved yet: a promise whose resolver has not been called, or a link
        /// waiting for the promise it follows (`source`) before running its `blocks`.
        case waiting(QXBlocks?, source: QXPromise?)
        /// Pending, its outcome being decided on this moment: a resolver's call in progress, or a
        /// link's block running. It ends settled or adopting; it is never abandoned.
        case running(QXRetryStep?)
        /// Pending, resolved with a promise it follows (`source`) or a thenable it assimilates
        /// (`source` is `nil`).
        case adopting(QXRetryStep?, source: QXPromise?)
        case fulfilled(PromiseValue)
        /// Rejected; a step whose block failed keeps it for `retry`.
        case rejected(any Error, QXRetryStep?)
        /// Pending for ever: nothing can settle it any more, and it let go of everything.
        case abandoned
    }

    /// What settling hands over: the observers to tell, and what to let go of afterwards.
    struct Settlement {
        let outcome: QXOutcome
        let observers: QXObserverList
        /// Whether `observers` includes `observe` observations (told in two passes).
        let hasKeyValueObservers: Bool
        /// Whether observers may join the delivery (the caller ends it when done).
        let isDelivering: Bool
        /// The `progress` key when the promise settled.
        let progress: QXProgress?
        /// Whether the promise still held itself (keepAlive): the caller lets go, last.
        let releasesItself: Bool
        let progressObservations: [QXObservation]
        /// A retry step no longer needed (the step fulfilled).
        let droppedStep: QXRetryStep?
    }

    /// What settling asks the caller to do.
    enum SettleAction {
        /// Settled: tell the observers, then let go.
        case settled(Settlement)
        /// Not settled yet: tell these `.prior` observers, then settle again without priors.
        case tellPriors([any QXObserverDelivery<QXPromise, QXPromise.Properties>], old: QXPromise.Properties)
        /// Not pending: nothing to do.
        case none
    }

    /// What an abandoned promise lets go of, after the lock.
    struct Abandonment {
        /// Whether the promise still held itself (keepAlive): the caller lets go.
        let releasesItself: Bool
        let observers: QXObserverList
        let progressObservations: [QXObservation]
        /// The stage it left: blocks that never ran, a step, the promise it followed.
        let stage: Stage
    }

    /// What a promise registering as observer must do.
    enum Registration {
        /// Stored (or joined to the delivery under way): it will be told.
        case added
        /// Already settled and told: tell it now, from the registering thread.
        case settled(QXOutcome)
        /// Nothing can settle the promise: it will never be told.
        case abandoned
    }

    /// What a link does when the promise it follows has settled.
    enum SourceAction {
        case runThen(QXThenBlock, PromiseValue)
        case runCatch(QXCatchBlock, any Error)
        case adopt(QXOutcome)
        case none
    }

    // The stored properties are ordered and sized so that they pack tightly, with no padding
    // between the stage and the observer list: every promise of a chain carries them.

    private(set) var stage: Stage
    /// The design's keepAlive: a pending promise holds a reference to itself (a retain the
    /// promise makes and gives back, ``QXPromise/letGoOfItself()``) until it settles
    /// (loseControl) or until nothing can settle it any more.
    private var keepsItselfAlive: Bool
    /// How many things can still settle the promise: resolvers not called yet, promises it
    /// follows, thenables it assimilates.
    private var settlers: Int32
    private(set) var observers = QXObserverList()
    /// Observations ended since the list was last compacted.
    private var endedObservers: Int32 = 0
    /// The thread telling the settlement to the observers, while it does.
    private var deliveringThread = QXThreadID.none
    /// Progress, and observers that join the settlement being told.
    private var rare: QXPromiseRareState?

    init(stage: Stage, settlers: Int32, keepsItselfAlive: Bool) {
        self.stage = stage
        self.settlers = settlers
        self.keepsItselfAlive = keepsItselfAlive
    }

    private var isDelivering: Bool { deliveringThread != .none }

    // MARK: - Reading

    var isPending: Bool {
        switch stage {
        case .waiting, .running, .adopting: return true
        case .fulfilled, .rejected, .abandoned: return false
        }
    }

    var outcome: QXOutcome? {
        switch stage {
        case .fulfilled(let value): return .fulfilled(value)
        case .rejected(let error, _): return .rejected(error)
        case .waiting, .running, .adopting, .abandoned: return nil
        }
    }

    /// The observable keys.
    var properties: QXPromise.Properties {
        var properties = QXPromise.Properties()
        properties.progress = rare?.report
        switch stage {
        case .fulfilled(let value):
            properties.state = .fulfilled
            properties.value = value
        case .rejected(let error, _):
            properties.state = .rejected
            properties.error = error
        case .waiting, .running, .adopting, .abandoned:
            break
        }
        return properties
    }

    /// The promise this one follows while pending (for the cycle check and progress).
    var pendingSource: QXPromise? {
        switch stage {
        case .waiting(_, let source), .adopting(_, let source): return source
        default: return nil
        }
    }

    var retryStep: QXRetryStep? {
        switch stage {
        case .running(let step), .adopting(let step, _), .rejected(_, let step): return step
        default: return nil
        }
    }

    var observerCount: Int {
        var count = 0
        observers.forEach { if $0.isActive { count += 1 } }
        return count
    }

    // MARK: - Resolving

    /// A settler's first call (a resolver's, or a thenable's callback): it no longer counts as a
    /// settler, and it decides the outcome if nobody did. `false` if the promise was resolved
    /// already.
    mutating func claim() -> Bool {
        precondition(settlers > 0, "a settler claimed a promise that counted none: each settler ends once")
        settlers -= 1
        switch stage {
        case .waiting(nil, nil):
            stage = .running(nil)
            return true
        case .adopting(let step, nil):
            // The thenable being assimilated calls back.
            stage = .running(step)
            return true
        default:
            return false
        }
    }

    /// The promise being resolved starts following `source`. Returns whether progress is
    /// forwarded (the caller subscribes to the source's).
    mutating func follow(_ source: QXPromise) -> Bool {
        guard case .running(let step) = stage else { return false }
        stage = .adopting(step, source: source)
        settlers += 1
        return rare?.isForwarded ?? false
    }

    /// The promise being resolved starts assimilating a thenable, which counts as a settler.
    mutating func beginAssimilating() {
        guard case .running(let step) = stage else { return }
        stage = .adopting(step, source: nil)
        settlers += 1
    }

    /// The promise this one followed has settled: it no longer counts as a settler, and the
    /// blocks (a link's, the first time) decide what comes next. Also returns the stage it
    /// leaves, for the caller to free after the lock: it holds the blocks that will not run and
    /// the followed promise, whose teardown may run user code.
    mutating func sourceSettled(_ outcome: QXOutcome) -> (SourceAction, left: Stage) {
        precondition(settlers > 0, "a source settled a promise that counted no settler: each settler ends once")
        settlers -= 1
        let left = stage
        switch stage {
        case .waiting(let blocks, _):
            switch outcome {
            case .fulfilled(let value):
                if let thenBlock = blocks?.thenBlock {
                    stage = .running(QXRetryStep(input: value, thenBlock: thenBlock))
                    return (.runThen(thenBlock, value), left)
                }
            case .rejected(let error):
                // Only the catch block decides; the original called the fulfil block after it.
                if let catchBlock = blocks?.catchBlock {
                    stage = .running(nil)
                    return (.runCatch(catchBlock, error), left)
                }
            }
            stage = .running(nil)
            return (.adopt(outcome), left)
        case .adopting(let step, _):
            stage = .running(step)
            return (.adopt(outcome), left)
        case .running, .fulfilled, .rejected, .abandoned:
            return (.none, left)
        }
    }

    /// The `observe` observers to tell before the promise settles with `outcome` (`.prior`), with
    /// the keys now; `nil` if there are none. Called only when some `observe` observer is
    /// registered (nearly never), so the common settle builds no list.
    private func settlementPriors(
        _ outcome: QXOutcome
    ) -> (observers: [any QXObserverDelivery<QXPromise, QXPromise.Properties>], old: QXPromise.Properties)? {
        var told: [any QXObserverDelivery<QXPromise, QXPromise.Properties>] = []
        for case .keyValue(let key, let delivery) in observers
        where key.changes(settlingWith: outcome) && delivery.options.contains(.prior) {
            told.append(delivery)
        }
        return told.isEmpty ? nil : (told, properties)
    }

    /// Settles the promise: `nil` if it is not pending. The observers of the module end here;
    /// those made through `observe` stay registered (their tokens end them). A rejected step
    /// keeps its block and input for `retry` if `keepingStep`.
    ///
    /// With `tellingPriors`, a promise whose `observe` observers asked for `.prior` is not
    /// settled yet: the caller tells them and settles again without it (only the one thread
    /// resolving the promise settles it, so the keys cannot change in between). The common case
    /// costs no second lock.
    mutating func settle(_ outcome: QXOutcome, keepingStep: Bool, tellingPriors: Bool) -> SettleAction {
        let step: QXRetryStep?
        switch stage {
        case .waiting: step = nil
        case .running(let kept), .adopting(let kept, _): step = kept
        case .fulfilled, .rejected, .abandoned: return .none
        }
        let hasKeyValueObservers = observers.contains { !$0.endsAtSettlement }
        if tellingPriors, hasKeyValueObservers, let (observers, old) = settlementPriors(outcome) {
            return .tellPriors(observers, old: old)
        }
        switch outcome {
        case .fulfilled(let value): stage = .fulfilled(value)
        case .rejected(let error): stage = .rejected(error, keepingStep ? step : nil)
        }
        let told = observers
        observers = hasKeyValueObservers ? told.filter { !$0.endsAtSettlement } : QXObserverList()
        if !told.isEmpty { deliveringThread = .current }
        defer {
            keepsItselfAlive = false
            rare?.observations = []
        }
        var droppedStep: QXRetryStep? = nil
        if case .fulfilled = outcome { droppedStep = step } else if !keepingStep { droppedStep = step }
        return .settled(
            Settlement(
                outcome: outcome,
                observers: told,
                hasKeyValueObservers: hasKeyValueObservers,
                isDelivering: !told.isEmpty,
                progress: rare?.report,
                releasesItself: keepsItselfAlive,
                progressObservations: rare?.observations ?? [],
                droppedStep: droppedStep
            ))
    }

    /// The observers that joined the settlement's delivery since the last call; when none did,
    /// the delivery ends.
    mutating func takeJoined() -> [QXPromiseObserver] {
        guard let rare, !rare.joined.isEmpty else {
            deliveringThread = .none
            return []
        }
        defer { rare.joined = [] }
        return rare.joined
    }

    /// A settler was freed or used up. When it was the last one of a promise waiting for it,
    /// nothing can settle the promise any more, so it lets go of itself and of everything it
    /// holds (the original would leak it).
    mutating func removeSettler() -> Abandonment? {
        precondition(settlers > 0, "a settler ended on a promise that counted none: each settler ends once")
        settlers -= 1
        switch stage {
        case .waiting, .adopting: break
        case .running, .fulfilled, .rejected, .abandoned: return nil
        }
        guard settlers == 0 else { return nil }
        let left = stage
        stage = .abandoned
        let told = observers
        observers = QXObserverList()
        endedObservers = 0
        defer {
            keepsItselfAlive = false
            rare?.observations = []
        }
        return Abandonment(
            releasesItself: keepsItselfAlive,
            observers: told,
            progressObservations: rare?.observations ?? [],
            stage: left
        )
    }

    // MARK: - Observers

    /// Registers one of the module's `state` observations (`.initial`, ends at settlement).
    mutating func register(_ observer: QXPromiseObserver) -> Registration {
        switch stage {
        case .waiting, .running, .adopting:
            observers.append(observer)
            return .added
        case .fulfilled, .rejected:
            // While the settling thread is still telling the others, it joins them (on any
            // thread: a link made inside a handler must not overtake links made before it).
            guard !isDelivering else {
                rareState().joined.append(observer)
                return .added
            }
            return .settled(outcome!)
        case .abandoned:
            return .abandoned
        }
    }

    /// Registers an `observe` observation. Returns the properties its `.initial` notification
    /// carries and whether it must join a settlement another thread is telling (after that
    /// notification, through ``joinAfterInitial(_:)``).
    mutating func registerKeyValue(
        _ key: QXPromise.Key, _ observer: any QXObserverDelivery<QXPromise, QXPromise.Properties>
    ) -> (initial: QXPromise.Properties, joinsSettlement: Bool, isEnded: Bool) {
        if case .abandoned = stage {
            // Its keys can never change: it is told the `.initial` notification only, and the
            // caller ends it (after the lock: ending it frees the handler).
            return (properties, false, true)
        }
        observers.append(.keyValue(key, observer))
        guard let outcome, key.changes(settlingWith: outcome), isDelivering, deliveringThread != .current else {
            return (properties, false, false)
        }
        // Another thread is telling the settlement: seen from before it, then told it after the
        // observers registered earlier.
        guard observer.options.contains(.initial) else {
            rareState().joined.append(.keyValue(key, observer))
            return (properties, false, false)
        }
        return (beforeSettlement, true, false)
    }

    /// Joins an observer, after its `.initial` notification, to the settlement being told; `false`
    /// if that ended meanwhile (the caller then tells the observer itself).
    mutating func joinAfterInitial(_ observer: QXPromiseObserver) -> Bool {
        guard isDelivering else { return false }
        rareState().joined.append(observer)
        return true
    }

    /// The keys as they were before the promise settled.
    var beforeSettlement: QXPromise.Properties {
        var properties = QXPromise.Properties()
        properties.progress = rare?.report
        return properties
    }

    /// An `observe` observation ended; when more than half of the list has, drops them and
    /// returns them, to be freed after the lock (their handlers may hold anything, including
    /// tokens of this promise, whose `deinit` takes the lock).
    mutating func observerDidEnd() -> QXObserverList {
        endedObservers += 1
        guard Int(endedObservers) * 2 > observers.count else { return QXObserverList() }
        endedObservers = 0
        let all = observers
        observers = all.filter { $0.isActive }
        return all
    }

    // MARK: - Progress

    /// Stores a progress report while pending; returns the observers to tell and the keys before
    /// and after, or `nil` if the promise is not pending or nobody observes.
    mutating func setProgress(
        _ report: QXProgress
    ) -> (
        observers: [any QXObserverDelivery<QXPromise, QXPromise.Properties>], old: QXPromise.Properties,
        new: QXPromise.Properties
    )? {
        guard isPending else { return nil }
        let old = properties
        rareState().report = report
        let told = observers(of: .progress)
        return told.isEmpty ? nil : (told, old, properties)
    }

    /// The observers to tell before a progress report is stored (`.prior`), with the keys now.
    func progressPriors() -> (
        observers: [any QXObserverDelivery<QXPromise, QXPromise.Properties>], old: QXPromise.Properties
    )? {
        guard isPending else { return nil }
        let told = observers(of: .progress).filter { $0.options.contains(.prior) }
        return told.isEmpty ? nil : (told, properties)
    }

    /// Turns progress forwarding on; returns the followed promise if it was off and there is one.
    mutating func startForwardingProgress() -> QXPromise? {
        guard isPending, !(rare?.isForwarded ?? false) else { return nil }
        rareState().isForwarded = true
        return pendingSource
    }

    /// Keeps `observation` until the promise settles; `false` if it is not pending (the caller
    /// then ends it).
    mutating func keepUntilSettled(_ observation: QXObservation) -> Bool {
        guard isPending else { return false }
        rareState().observations.append(observation)
        return true
    }

    private mutating func rareState() -> QXPromiseRareState {
        if let rare { return rare }
        let made = QXPromiseRareState()
        rare = made
        return made
    }

    /// The `observe` observers told when `key` changes (those of the key, and of derived paths).
    private func observers(of key: QXPromise.Key) -> [any QXObserverDelivery<QXPromise, QXPromise.Properties>] {
        var told: [any QXObserverDelivery<QXPromise, QXPromise.Properties>] = []
        observers.forEach { observer in
            if case .keyValue(let observed, let delivery) = observer, observed == key || observed == .derived {
                told.append(delivery)
            }
        }
        return told
    }
}
