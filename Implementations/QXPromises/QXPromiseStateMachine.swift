public import PromiseInterface

/// A `then` block: maps a value to the next promise's value, a promise to observe, or a throw.
public typealias QXThenBlock = @Sendable (PromiseValue) throws -> PromiseValue

/// A `catch` block: maps an error to the next promise's value, a promise to observe, or a throw.
public typealias QXCatchBlock = @Sendable (any Error) throws -> PromiseValue

/// How a promise ended: what its observable `state`, `value` and `error` say once settled.
enum QXOutcome: Sendable {
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

/// The bookkeeping behind ``QXPromise`` that is not observable: what the original keeps in
/// properties beside `state`, `value` and `error`, plus its keepAlive self-reference.
///
/// Every transition is a mutating method that returns what the caller must do after releasing the
/// lock, so no observer, block or release runs under it.
struct QXPromiseStateMachine {
    enum Phase {
        /// Nobody has resolved or rejected the promise yet.
        case pending
        /// Resolved with a promise (observed) or a thenable (assimilated); still unsettled, and
        /// later resolve or reject calls from the work are ignored.
        case resolving
        /// Fulfilled or rejected; never changes again.
        case settled
    }

    /// What a settling or abandoned promise lets go of, after the lock.
    struct Release {
        /// The promise's reference to itself (the design's keepAlive).
        let keepAlive: QXPromise?
        /// Observations that only matter while pending (progress forwarding and handlers).
        let observations: [QXObservation]
        /// Blocks that did not run (an abandoned link) and a retry step no longer needed: user
        /// closures, freed after the lock, since what they capture may call back into it.
        let blocks: QXBlocks?
        let retryStep: QXRetryStep?
    }

    private(set) var phase: Phase
    /// The design's keepAlive: a pending promise refers to itself until it settles
    /// (loseControl) or until nothing can settle it any more.
    var keepAlive: QXPromise?
    /// How many ``QXSettler``s (resolvers, observations of a followed promise, thenables being
    /// assimilated) can still settle the promise.
    private var settlers = 0
    /// `thenBlock` and `catchBlock`, run once, when the first promise this one observes settles.
    private var blocks: QXBlocks?
    /// The input and block of the step that ran, while the step has not fulfilled.
    var retryStep: QXRetryStep?
    /// The promise this one currently observes, for progress forwarding and the cycle check
    /// (``AdoptionCycle``). Weak: a promise never keeps the one it follows alive (that one's
    /// keepAlive does).
    weak var source: QXPromise?
    /// Observations to end when the promise settles.
    private var observations: [QXObservation] = []
    /// Whether progress reported upstream is forwarded to this promise.
    private(set) var forwardsProgress = false

    init(pendingWith blocks: QXBlocks?) {
        phase = .pending
        self.blocks = blocks
    }

    init(settled: ()) {
        phase = .settled
    }

    var isSettled: Bool { phase == .settled }

    /// A resolver's first `fulfill`/`reject` claims the promise; later ones are ignored.
    mutating func claim() -> Bool {
        guard phase == .pending else { return false }
        phase = .resolving
        return true
    }

    /// Settles the promise: `nil` if it already was.
    mutating func settle(fulfilled: Bool) -> Release? {
        guard phase != .settled else { return nil }
        phase = .settled
        return takeRelease(droppingRetryStep: fulfilled)
    }

    mutating func addSettler() {
        settlers += 1
    }

    /// A settler was freed. When it was the last one of an unsettled promise, nothing can settle
    /// it any more, so it lets go of itself (the original would leak it).
    mutating func removeSettler() -> Release? {
        settlers -= 1
        guard settlers == 0, phase != .settled, keepAlive != nil else { return nil }
        return takeRelease(droppingRetryStep: true)
    }

    /// The blocks, the first time the observed promise settles; `nil` afterwards (the promise
    /// then adopts whatever it observes next) or if there are none.
    mutating func takeBlocks() -> QXBlocks? {
        defer { blocks = nil }
        return blocks
    }

    /// The promise this one follows, while it is pending.
    var pendingSource: QXPromise? {
        phase == .settled ? nil : source
    }

    /// Starts following `promise`; returns whether progress must be forwarded from it.
    mutating func follow(_ promise: QXPromise) -> Bool {
        source = promise
        return forwardsProgress
    }

    /// Turns progress forwarding on; returns the followed promise if it was off and there is one.
    mutating func startForwardingProgress() -> QXPromise? {
        guard phase != .settled, !forwardsProgress else { return nil }
        forwardsProgress = true
        return source
    }

    /// Keeps `observation` until the promise settles; `false` if it already has (the caller then
    /// ends it).
    mutating func keep(_ observation: QXObservation) -> Bool {
        guard phase != .settled else { return false }
        observations.append(observation)
        return true
    }

    private mutating func takeRelease(droppingRetryStep: Bool) -> Release {
        defer {
            keepAlive = nil
            observations = []
            blocks = nil
            source = nil
            if droppingRetryStep { retryStep = nil }
        }
        return Release(
            keepAlive: keepAlive,
            observations: observations,
            blocks: blocks,
            retryStep: droppingRetryStep ? retryStep : nil
        )
    }
}
