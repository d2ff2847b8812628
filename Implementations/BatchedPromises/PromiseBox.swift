public import Dispatch
public import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
// The leak check's tracker is a field of every pending promise in debug builds only.
#if DEBUG
    public import PromiseRuntime
#else
    import PromiseRuntime
#endif

/// The part of a promise's state its lock guards, with each transition as a function that returns
/// what the caller must do once the lock is released: the lock only decides, the effects (running
/// nodes, user code) happen outside it. It does not depend on the promise's value types, so that
/// the code that locks it needs no generic metadata.
@usableFromInline
struct Control {
    @usableFromInline
    enum Phase: UInt8 {
        case pending
        /// Settled: the outcome is in the promise's ``PromiseBox/payload``.
        case settled
        /// Settled as cancelled (the payload holds `.cancelled`).
        case cancelled
        /// Freed while pending: it will never settle, and its waiters were let go.
        case abandoned
        /// Settles as another promise does, its *root*: a promise returned from a `flatMap`
        /// callback becomes the promise `flatMap` returned (``AdoptingLink``). Registrations and
        /// settles go to the root, and ``waiters`` holds it, with a reference.
        case forwarded
    }

    /// While pending or handing out, the nodes waiting for it, newest first (``NodeList``
    /// reverses them), with one reference owned for each; while forwarded, the root. First, so that
    /// the three one-byte fields after it leave the rest of their word to the promise's lock
    /// (``PromiseCore``: 88 bytes where the flags first took 96).
    @usableFromInline var waiters: Unmanaged<Node>?
    @usableFromInline var phase: Phase
    /// Whether the settler is still handing the waiters out: a node registered meanwhile joins
    /// ``waiters`` and is handed out after them, by the drain the settler handed them to
    /// (``PromiseBox/handOut(_:cancelled:in:)``), so that callbacks registered on one promise keep
    /// their order although it settles on one thread while another registers, and although the
    /// drain hands its queue back after a batch (Promises/A+ 2.2.6).
    @usableFromInline var handingOut = false
    /// Whether the promise's resolver has resolved it with another promise, which now settles it:
    /// the resolver's later calls are ignored, as its first call decided.
    @usableFromInline var lockedIn = false
    @inlinable
    init(_ phase: Phase) {
        self.phase = phase
    }

    @inlinable
    var isPending: Bool { phase == .pending }

    /// Whether the promise's outcome is still to come: pending, or forwarding to a promise that
    /// settles for it. Code that settles it decides on this, not on ``isPending``.
    @inlinable
    var isOpen: Bool { phase == .pending || phase == .forwarded }

    /// Adds `node` to the waiters; `false` when the promise has settled and the caller must
    /// schedule `node` itself.
    @inlinable
    mutating func register(_ node: Node) -> Bool {
        guard phase == .pending || handingOut else { return false }
        node.next = waiters
        waiters = Unmanaged.passRetained(node)
        return true
    }

    /// Marks the promise settled (its payload written already) and hands over the waiters with
    /// their references; while the caller hands them out, later registrations queue up here.
    @inlinable
    mutating func settle(cancelled: Bool) -> Unmanaged<Node>? {
        phase = cancelled ? .cancelled : .settled
        defer { waiters = nil }
        handingOut = waiters != nil
        return waiters
    }

    /// The nodes registered while the settler handed the waiters out, or `nil` when there are
    /// none, which ends the handing out.
    @inlinable
    mutating func takeLateWaiters() -> Unmanaged<Node>? {
        guard let late = waiters else {
            handingOut = false
            return nil
        }
        waiters = nil
        return late
    }

    /// Takes `dependent` out of the waiters, and hands over the reference the list owned (to be
    /// released once the lock is released). `noneDemanding` is whether the promise is pending with
    /// no waiter left that demands its outcome: no one is left to settle it for.
    @usableFromInline
    mutating func withdraw(_ dependent: Unmanaged<Node>) -> (removed: Unmanaged<Node>?, noneDemanding: Bool) {
        guard phase == .pending else { return (nil, false) }
        var removed: Unmanaged<Node>? = nil
        var previous: Unmanaged<Node>? = nil
        var current = waiters
        while let node = current {
            let following = node._withUnsafeGuaranteedRef { $0.next }
            if node.toOpaque() == dependent.toOpaque() {
                if let previous {
                    previous._withUnsafeGuaranteedRef { $0.next = following }
                } else {
                    waiters = following
                }
                dependent._withUnsafeGuaranteedRef { $0.next = nil }
                removed = node
                break
            }
            previous = node
            current = following
        }
        current = waiters
        while let node = current {
            let (demands, following) = node._withUnsafeGuaranteedRef { ($0.demandsOutcome, $0.next) }
            if demands { return (removed, false) }
            current = following
        }
        return (removed, true)
    }
}

/// The part of a promise's storage that does not depend on its value types: its ``Control``
/// behind its lock, and the raw storage of its outcome. Code that only locks a promise, such as a
/// drain ending a promise's hand-out or a cancellation walk, reaches it without a generic type,
/// so that it runs specialised, inline, whichever promise it is.
///
/// `@unchecked Sendable`: ``lock`` guards ``control``; ``payload`` is written once under the lock
/// and immutable afterwards.
@usableFromInline
class PromiseCore: Node, @unchecked Sendable {
    /// The phase and the waiters, guarded by ``lock`` (``withControl(_:)``).
    @exclusivity(unchecked) @usableFromInline final var control: Control

    /// The lock of ``control`` (``Lock``: a spin lock on Linux, `os_unfair_lock` on Apple
    /// platforms).
    @usableFromInline final let lock = Lock()

    /// The outcome once settled, inline or as a pointer to it (``PromiseBox/storesInline``).
    @exclusivity(unchecked) @usableFromInline final var payload: (UInt, UInt) = (0, 0)

    @inlinable
    init(
        _ phase: Control.Phase, queue: DispatchQueue?, destroysOutcome: Bool,
        operation: @escaping (Node, Operation, UnsafeMutablePointer<Drain>?) -> Void
    ) {
        control = Control(phase)
        super.init(queue: queue, destroysOutcome: destroysOutcome, operation: operation)
    }

    /// Runs `body` with ``control``, under the lock.
    @inlinable
    final func withControl<Result>(_ body: (inout Control) -> Result) -> Result {
        lock.withLock { body(&control) }
    }

    /// Ends the hand-out once the drain has reached the last node it was handed (or at once, when
    /// none runs in the drain): hands out the nodes registered meanwhile, and if some of them run
    /// in the drain, goes on until it reaches the last of those; otherwise the promise stops
    /// handing out.
    ///
    /// The nodes handed out for other queues are dispatched before the hand-out ends: from then on
    /// a registration dispatches a block of its own (``Drain/scheduleLate(_:)``), which must reach
    /// its queue after theirs (Promises/A+ 2.2.6, with the registering thread racing the settling
    /// one).
    @inlinable
    @inline(__always)
    final func finishHandingOut(cancelled: Bool, in drain: UnsafeMutablePointer<Drain>) {
        while true {
            if !drain.pointee.elsewhere.isEmpty { drain.pointee.dispatchElsewhere() }
            guard let late = withControl({ $0.takeLateWaiters() }) else { return }
            if let last = Node.schedule(late, of: self, cancelled: cancelled, in: drain),
                !drain.pointee.runsLastAddedBeforeYielding
            {
                drain.pointee.handOutEnds.append(
                    Drain.HandOutEnd(box: .passUnretained(self), last: last, cancelled: cancelled))
                return
            }
        }
    }

    /// Hands `waiters` (newest first), this promise's waiters once settled, to `drain`: the hand-out
    /// goes on until the drain reaches the last of them it runs itself (``Drain/HandOutEnds``), when
    /// the drain will have handed its queue back before that node runs; otherwise it ends at once.
    ///
    /// Until then a registration on this promise joins its list and is handed out after them, by
    /// the drain, whether it comes from a callback of the drain or from another thread: a
    /// registration that dispatched a block of its own instead could reach the queue before them,
    /// once the drain has handed its queue back after a batch (Promises/A+ 2.2.6). A promise none
    /// of whose waiters runs in the drain (all are for other queues) ends its hand-out at once.
    @inlinable
    @inline(__always)
    final func handOut(_ waiters: Unmanaged<Node>, cancelled: Bool, in drain: UnsafeMutablePointer<Drain>) {
        if let last = Node.schedule(waiters, of: self, cancelled: cancelled, in: drain),
            !drain.pointee.runsLastAddedBeforeYielding
        {
            drain.pointee.handOutEnds.append(
                Drain.HandOutEnd(box: .passUnretained(self), last: last, cancelled: cancelled))
        } else {
            finishHandingOut(cancelled: cancelled, in: drain)
        }
    }
}

/// The storage of a promise: its ``Control`` behind one lock and its outcome (``PromiseCore``), and,
/// in a subclass, the step that settles it. Itself a ``Node``, so that a link (the promise `map`
/// returns, its callback and what runs it) is one object.
///
/// The outcome is kept in ``PromiseCore/payload``, two words of raw storage, when it fits (most
/// values do: a number, a reference, a `String`); a larger one is kept in an allocation of its own
/// that the payload points to. Written once, under the lock, before the promise is marked settled;
/// read by the nodes it schedules (which the scheduling orders after the write) and under the lock.
///
/// `@unchecked Sendable`: as ``PromiseCore``; ``leakTracker`` is a constant.
@usableFromInline
class PromiseBox<Value: Sendable, Failure: Error>: PromiseCore, @unchecked Sendable {
    @usableFromInline typealias Outcome = Promise<Value, Failure>.Outcome

    #if DEBUG
        /// Where a pending promise was made and whom to tell if it is freed pending
        /// (`PendingPromiseLeakCheck`); debug builds only.
        @usableFromInline final let leakTracker: PendingPromiseLeakTracker?
    #endif

    /// A pending promise; a subclass's `operation` runs its step.
    @inlinable
    init(pendingOn queue: DispatchQueue?, operation: @escaping (Node, Operation, UnsafeMutablePointer<Drain>?) -> Void)
    {
        #if DEBUG
            leakTracker = PendingPromiseLeakCheck.track()
        #endif
        super.init(.pending, queue: queue, destroysOutcome: Self.outcomeNeedsDestroying, operation: operation)
    }

    /// A pending promise that no step settles (a resolver does).
    @inlinable
    convenience init() {
        self.init(pendingOn: nil) { node, operation, _ in
            if operation == .destroyOutcome { unsafeDowncast(node, to: PromiseBox.self).destroyOutcome() }
        }
    }

    /// A promise settled with `outcome`.
    @inlinable
    init(settled outcome: Outcome) {
        #if DEBUG
            leakTracker = nil
        #endif
        super.init(
            outcome.isCancelled ? .cancelled : .settled, queue: nil, destroysOutcome: Self.outcomeNeedsDestroying
        ) { node, operation, _ in
            if operation == .destroyOutcome { unsafeDowncast(node, to: PromiseBox.self).destroyOutcome() }
        }
        if !outcome.isCancelled { storeOutcome(outcome) }
        settled.store(Settled.state(cancelled: outcome.isCancelled), ordering: .relaxed)
    }

    deinit {
        let settledState = settled.load(ordering: .acquiring)
        if settledState != Settled.not {
            if destroysOutcome && settledState == Settled.withOutcome { operation(self, .destroyOutcome, nil) }
            waitForWalks()
            return
        }
        let (phase, waiters) = withControl { control -> (Control.Phase, Unmanaged<Node>?) in
            let phase = control.phase
            guard phase == .pending || phase == .forwarded else { return (phase, nil) }
            if phase == .pending { control.phase = .abandoned }
            defer { control.waiters = nil }
            return (phase, control.waiters)
        }
        switch phase {
        case .forwarded:
            // The root may point at this promise, to cancel its work: it forgets it first.
            if let root = waiters {
                unsafeDowncast(root.takeUnretainedValue(), to: PromiseBox.self).forwardingPromiseFreed(self)
                root.release()
            }
        case .settled:
            if destroysOutcome { operation(self, .destroyOutcome, nil) }
        case .cancelled:
            break
        case .pending:
            #if DEBUG
                leakTracker?.reportGivenUp(self)
            #endif
            // The waiters will never run: each forgets this promise, then they are let go one at a
            // time (a dropped 100,000-link chain would otherwise be freed one deinit inside the
            // next).
            var list = NodeList(reversing: waiters)
            while let node = list.popFirst() {
                node.inputAbandoned()
                releaseIteratively(consume node)
            }
        case .abandoned:
            break
        }
        // A cancellation walk may still hold this promise's memory, to read its state.
        waitForWalks()
    }

    // MARK: The lock

    // MARK: The outcome

    /// Whether a stored outcome needs ``destroyOutcome()``: when it holds references, or lives in
    /// an allocation of its own.
    @inlinable
    static var outcomeNeedsDestroying: Bool { !_isPOD(Outcome.self) || !storesInline }

    /// Whether the outcome fits in ``payload``.
    @inlinable
    static var storesInline: Bool {
        MemoryLayout<Outcome>.size <= MemoryLayout<(UInt, UInt)>.size
            && MemoryLayout<Outcome>.alignment <= MemoryLayout<(UInt, UInt)>.alignment
    }

    /// Writes the outcome into ``payload`` (once, under the lock or before the promise is shared).
    @inlinable
    final func storeOutcome(_ outcome: Outcome) {
        withUnsafeMutableBytes(of: &payload) { raw in
            if Self.storesInline {
                raw.baseAddress!.initializeMemory(as: Outcome.self, to: outcome)
            } else {
                let stored = UnsafeMutablePointer<Outcome>.allocate(capacity: 1)
                stored.initialize(to: outcome)
                raw.storeBytes(of: stored, as: UnsafeMutablePointer<Outcome>.self)
            }
        }
    }

    /// The outcome of a promise known to have settled. A cancellation is in ``Node/settled``
    /// and writes no payload (a cancellation walk runs unspecialised code, which could only write
    /// one with a generic-metadata lookup).
    ///
    /// Reads a copy of ``payload``, never the property in place: callbacks on several queues read
    /// one settled outcome at once, and an in-place (`inout`) access is a modifying one, which
    /// ThreadSanitizer reports as a race between those readers.
    @inlinable
    final var settledOutcome: Outcome {
        if settled.load(ordering: .relaxed) == Settled.cancelled { return .cancelled }
        return withUnsafeBytes(of: payload) { raw in
            if Self.storesInline { return raw.baseAddress!.assumingMemoryBound(to: Outcome.self).pointee }
            return raw.load(as: UnsafeMutablePointer<Outcome>.self).pointee
        }
    }

    /// Destroys the outcome (from the deinitializer, through ``Node/operation``).
    @inlinable
    final func destroyOutcome() {
        withUnsafeMutableBytes(of: &payload) { raw in
            if Self.storesInline {
                raw.baseAddress!.assumingMemoryBound(to: Outcome.self).deinitialize(count: 1)
            } else {
                let stored = raw.load(as: UnsafeMutablePointer<Outcome>.self)
                stored.deinitialize(count: 1)
                stored.deallocate()
            }
        }
    }

    /// The outcome, or `nil` while pending.
    @inlinable
    final var currentOutcome: Outcome? {
        if let target = forwardTargetIfForwarded() { return target.currentOutcome }
        switch withControl({ $0.phase }) {
        case .settled, .cancelled: return settledOutcome
        case .forwarded, .pending, .abandoned: return nil
        }
    }

    /// Whether the promise has not settled.
    @inlinable
    final var isPending: Bool { currentOutcome == nil }

    // MARK: Forwarding

    /// The promise whose outcome this one's is: itself, or the end of its forwards. A chain of
    /// forwards is shortened on the way (every promise of it then forwards to the end directly),
    /// so that adoptions nested innermost first cost no walk of their depth each.
    @inlinable
    final var root: PromiseBox {
        guard let first = forwardTargetIfForwarded() else { return self }
        var root = first
        var hops = 1
        while let next = root.forwardTargetIfForwarded() {
            root = next
            hops += 1
        }
        if hops > 1 {
            var box = self
            while box !== root, let next = box.repointForward(to: root) { box = next }
        }
        return root
    }

    /// Points this promise's forward at `root`, if it still forwards; returns the promise it
    /// forwarded to before.
    @usableFromInline
    final func repointForward(to root: PromiseBox) -> PromiseBox? {
        let previous = withControl { control -> Unmanaged<Node>? in
            guard control.phase == .forwarded, let previous = control.waiters else { return nil }
            control.waiters = .passRetained(root)
            return previous
        }
        guard let previous else { return nil }
        return unsafeDowncast(previous.takeRetainedValue(), to: PromiseBox.self)
    }

    /// The promise this one forwards to, if it does, taken under the lock with a reference of the
    /// caller's own (a cancellation may end the forward and let its reference go meanwhile).
    @inlinable
    final func forwardTargetIfForwarded() -> PromiseBox? {
        withControl { control in
            guard control.phase == .forwarded, let target = control.waiters else { return nil }
            return unsafeDowncast(target.takeUnretainedValue(), to: PromiseBox.self)
        }
    }

    /// Makes `promise` settle as `root` (this promise's root) does, if it is pending and forwards
    /// nowhere yet: its waiters move to `root`, in order, and wait on it. Returns whether it did.
    @inlinable
    final func link(_ promise: PromiseBox, to root: PromiseBox, in drain: UnsafeMutablePointer<Drain>?) -> Bool {
        guard var waiters = promise.forward(to: root) else { return false }
        while let node = waiters.popFirst() {
            node.retarget(from: promise, to: root)
            root.register(node, in: drain)
        }
        return true
    }

    /// Settles as `promise` does: `promise` is linked to this promise's root when it can be, and
    /// waited on otherwise. Returns `false`, and does nothing, when `promise` is this promise or
    /// settles as it does already (a cycle, which would never settle).
    @inlinable
    final func follow(_ promise: PromiseBox, in drain: UnsafeMutablePointer<Drain>?) -> Bool {
        let root = self.root
        guard promise.root !== root else { return false }
        if !link(promise, to: root, in: drain) {
            promise.register(Adoption(into: self, from: promise), in: drain)
        }
        return true
    }

    /// Whether the resolver may act: `true` the first time it resolves with a promise or a
    /// thenable (after which its later calls are ignored), and for every call before that.
    @inlinable
    final func resolverMayAct(lockingIn: Bool) -> Bool {
        withControl { control in
            guard !control.lockedIn else { return false }
            if lockingIn { control.lockedIn = true }
            return true
        }
    }

    /// Settles with `outcome` for a resolver: ignored once the resolver followed a promise.
    @inlinable
    final func resolverComplete(_ outcome: Outcome) {
        guard resolverMayAct(lockingIn: false) else { return }
        complete(outcome)
    }

    /// Makes this promise, pending and forwarding to none yet, settle as `root` does: its waiters
    /// are handed over (returned, in the order they were registered) and it holds `root`. Returns
    /// `nil` when this promise has settled or forwards already, and the caller waits on it instead.
    @inlinable
    final func forward(to root: PromiseBox) -> NodeList? {
        withControl { control -> NodeList? in
            guard control.isPending else { return nil }
            let waiters = NodeList(reversing: control.waiters)
            control.phase = .forwarded
            control.waiters = .passRetained(root)
            return waiters
        }
    }

    // MARK: Waiting

    /// Runs `node` once this promise settles, in `drain` (or the drain of this thread) if it has
    /// settled already.
    @inlinable
    final func register(_ node: Node, in drain: UnsafeMutablePointer<Drain>? = nil) {
        let phase = withControl { control -> Control.Phase? in
            control.register(node) ? nil : control.phase
        }
        guard let phase else { return }
        if phase == .forwarded {
            // The node waits on the root, and reads it when it runs.
            let target = root
            if target !== self {
                node.retarget(from: self, to: target)
                return target.register(node, in: drain)
            }
        }
        guard node.demandsOutcome else {
            // A cancellation handler on a settled promise runs now if it was cancelled.
            if phase == .cancelled { node.runCancellationHandler() }
            return
        }
        retainForNode()
        if let drain {
            drain.pointee.scheduleLate(node)
        } else {
            Drain.withCurrent { $0.pointee.scheduleLate(node) }
        }
    }

    /// The reference a node scheduled by this promise holds; ``releaseFromNode()`` gives it back.
    @inlinable
    final func retainForNode() {
        _ = Unmanaged.passUnretained(self).retain()
    }

    @inlinable
    final func releaseFromNode() {
        Unmanaged.passUnretained(self).release()
    }

    // MARK: Settling

    /// What settling under the lock found.
    @usableFromInline
    enum SettleAction {
        /// Settled now: these waiters (newest first), if any, are to be handed out.
        case handOut(Unmanaged<Node>?)
        /// Settled already, or freed pending.
        case closed
        /// Forwards to a root, which settles instead.
        case forwarded
    }

    /// Settles with `outcome` unless settled already, and hands the waiters to `drain` (or to the
    /// drain of this thread). Returns whether this call settled the promise.
    ///
    /// Every link runs this once, so the common path is kept small enough to inline: one lock,
    /// no reference counting, and the rare forward in a function of its own.
    @inlinable
    @inline(__always)
    @discardableResult
    final func complete(_ outcome: Outcome, in drain: UnsafeMutablePointer<Drain>? = nil) -> Bool {
        let cancelled = outcome.isCancelled
        let action = withControl { control -> SettleAction in
            guard control.isPending else { return control.phase == .forwarded ? .forwarded : .closed }
            if !cancelled { storeOutcome(outcome) }
            self.settled.store(Settled.state(cancelled: cancelled), ordering: .releasing)
            return .handOut(control.settle(cancelled: cancelled))
        }
        switch action {
        case .handOut(let waiters):
            guard let waiters else { return true }
            if let drain {
                handOut(waiters, cancelled: cancelled, in: drain)
            } else {
                Drain.withCurrent { drain in handOut(waiters, cancelled: cancelled, in: drain) }
            }
            return true
        case .closed:
            return false
        case .forwarded:
            return completeRoot(outcome, in: drain)
        }
    }

    /// Settles the root this promise forwards to (found in a loop, so a chain of forwards does
    /// not recurse).
    @usableFromInline
    final func completeRoot(_ outcome: Outcome, in drain: UnsafeMutablePointer<Drain>?) -> Bool {
        let target = root
        return target !== self && target.complete(outcome, in: drain)
    }

    // MARK: Cancellation

    /// The promises this one waits on, each with the node it waits through, while it is pending:
    /// what a cancellation walk withdraws from. Called under ``control``'s lock, when the promise
    /// stops waiting on them (cancelled, decided, timed out): an aggregate lets go of its input
    /// nodes then, which hold it. A promise that is not a link waits on none.
    @usableFromInline
    func upstreamsLocked() -> CancellationWalk.Upstreams { .none }

    /// `promise` forwards to this one now: a link records it for cancellation walks (see
    /// `AdoptingLink.adopt(_:in:)`); `false` when this one is no longer pending. Only a link that
    /// adopts is ever a root, so others never record one.
    @usableFromInline
    func adoptByForward(_ promise: PromiseBox) -> Bool { false }

    /// A promise that forwarded to this one is freed: forget it if it was recorded
    /// (``adoptByForward(_:)``).
    @usableFromInline
    func forwardingPromiseFreed(_ promise: PromiseBox) {}

    @usableFromInline
    override final func cancellationStep(
        withdrawing dependent: Unmanaged<Node>?, handsOut: Bool, onlyWithdraw: Bool
    ) -> (step: CancellationWalk.Step, removed: CancellationWalk.Removed) {
        withControl { control in
            if control.phase == .forwarded {
                // Reached from its root (or by a caller that cancels this promise's own work),
                // which is being cancelled: so is the work it stands for.
                guard dependent == nil || dependent?.toOpaque() == control.waiters?.toOpaque() else {
                    return (.stop, .none)
                }
                let root = control.waiters
                control.waiters = nil
                control.phase = .cancelled
                self.settled.store(Settled.cancelled, ordering: .releasing)
                let upstreams = upstreamsLocked()
                upstreams.pin()
                return (.cancelled(waiters: nil, upstreams: upstreams), root.map { .forward($0) } ?? .none)
            }
            var removed = CancellationWalk.Removed.none
            if let dependent {
                let withdrawal = control.withdraw(dependent)
                if let node = withdrawal.removed { removed = .waiter(node) }
                guard withdrawal.noneDemanding, !onlyWithdraw else { return (.stop, removed) }
            }
            guard control.isPending else { return (.stop, removed) }
            self.settled.store(Settled.cancelled, ordering: .releasing)
            let waiters = control.settle(cancelled: true)
            // A walk reaches a promise by pointer and cannot hand out to late comers: they see it
            // cancelled and run at once.
            if !handsOut { control.handingOut = false }
            let upstreams = upstreamsLocked()
            upstreams.pin()
            return (.cancelled(waiters: waiters, upstreams: upstreams), removed)
        }
    }

}

extension Node {
    /// Hands `waiters` (newest first), the waiters of `box`, which has settled, to `drain` in the
    /// order they were registered, each with a reference to `box`; runs the cancellation handlers
    /// among them if it was cancelled, and drops them otherwise. Returns the last of them that runs
    /// in `drain` itself, if any.
    @usableFromInline
    static func schedule(
        _ waiters: Unmanaged<Node>, of box: Node, cancelled: Bool, in drain: UnsafeMutablePointer<Drain>
    ) -> Unmanaged<Node>? {
        var list = NodeList(reversing: waiters)
        var last: Unmanaged<Node>? = nil
        while let node = list.popFirstOwned() {
            guard node._withUnsafeGuaranteedRef({ $0.demandsOutcome }) else {
                let handler = node.takeRetainedValue()
                if cancelled { handler.runCancellationHandler() }
                continue
            }
            _ = Unmanaged.passUnretained(box).retain()
            if drain.pointee.schedule(owned: node) { last = node }
        }
        return last
    }
}

extension Promise.Outcome {
    @inlinable
    var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }
}
