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
    }

    @usableFromInline var phase: Phase
    /// While pending, the nodes waiting for it, newest first (``NodeList`` reverses them), with
    /// one reference owned for each.
    @usableFromInline var waiters: Unmanaged<Node>?

    @inlinable
    init(_ phase: Phase) {
        self.phase = phase
    }

    @inlinable
    var isPending: Bool { phase == .pending }

    /// Adds `node` to the waiters; `false` when the promise has settled and the caller must
    /// schedule `node` itself.
    @inlinable
    mutating func register(_ node: Node) -> Bool {
        guard phase == .pending else { return false }
        node.next = waiters
        waiters = Unmanaged.passRetained(node)
        return true
    }

    /// Marks the promise settled (its payload written already) and hands over the waiters with
    /// their references.
    @inlinable
    mutating func settle(cancelled: Bool) -> Unmanaged<Node>? {
        phase = cancelled ? .cancelled : .settled
        defer { waiters = nil }
        return waiters
    }

    /// Takes `dependent` out of the waiters, and hands over the reference the list owned (to be
    /// released once the lock is released). `noneDemanding` is whether the promise is pending with
    /// no waiter left that demands its outcome: no one is left to settle it for.
    @usableFromInline
    mutating func withdraw(_ dependent: Node) -> (removed: Unmanaged<Node>?, noneDemanding: Bool) {
        guard phase == .pending else { return (nil, false) }
        var removed: Unmanaged<Node>? = nil
        var previous: Unmanaged<Node>? = nil
        var current = waiters
        while let node = current {
            let following = node._withUnsafeGuaranteedRef { $0.next }
            if node.toOpaque() == Unmanaged.passUnretained(dependent).toOpaque() {
                if let previous {
                    previous._withUnsafeGuaranteedRef { $0.next = following }
                } else {
                    waiters = following
                }
                dependent.next = nil
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

/// The storage of a promise: its ``Control`` behind one lock and its outcome, and, in a subclass,
/// the step that settles it. Itself a ``Node``, so that a link (the promise `map` returns, its
/// callback and what runs it) is one object.
///
/// The outcome is kept in ``payload``, two words of raw storage, when it fits (most values do: a
/// number, a reference, a `String`); a larger one is kept in an allocation of its own that the
/// payload points to. Written once, under the lock, before the promise is marked settled; read
/// by the nodes it schedules (which the scheduling orders after the write) and under the lock.
///
/// `@unchecked Sendable`: ``control`` guards itself; ``payload`` is written once under its lock
/// and immutable afterwards.
@usableFromInline
class PromiseBox<Value: Sendable, Failure: Error>: Node, @unchecked Sendable {
    @usableFromInline typealias Outcome = Promise<Value, Failure>.Outcome

    /// The phase and the waiters, guarded by ``lockWord`` (``withControl(_:)``).
    @exclusivity(unchecked) @usableFromInline final var control: Control

    /// The lock of ``control``: 1 while held. A spin lock, because what it guards is a few
    /// dozen instructions that never run user code and never block, so a waiter spins briefly
    /// (yielding its thread if it must wait longer), and because it is an atomic that
    /// ThreadSanitizer sees and that needs no thread identity (`Synchronization.Mutex` on Linux
    /// reads the thread's identity from thread-local storage on every lock, a tenth of a chain
    /// link's instructions).
    @usableFromInline final let lockWord = Atomic<UInt32>(0)

    /// The outcome once settled, inline or as a pointer to it (``storesInline``).
    @exclusivity(unchecked) @usableFromInline final var payload: (UInt, UInt) = (0, 0)

    #if DEBUG
        /// Where a pending promise was made and whom to tell if it is freed pending
        /// (`PendingPromiseLeakCheck`); debug builds only.
        @usableFromInline final let leakTracker: PendingPromiseLeakTracker?
    #endif

    /// A pending promise; a subclass's `operation` runs its step.
    @inlinable
    init(pendingOn queue: DispatchQueue?, operation: @escaping (Node, Operation, UnsafeMutablePointer<Drain>?) -> Void)
    {
        control = Control(.pending)
        #if DEBUG
            leakTracker = PendingPromiseLeakCheck.track()
        #endif
        super.init(queue: queue, destroysOutcome: !_isPOD(Outcome.self), operation: operation)
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
        control = Control(outcome.isCancelled ? .cancelled : .settled)
        #if DEBUG
            leakTracker = nil
        #endif
        super.init(queue: nil, destroysOutcome: !_isPOD(Outcome.self)) { node, operation, _ in
            if operation == .destroyOutcome { unsafeDowncast(node, to: PromiseBox.self).destroyOutcome() }
        }
        storeOutcome(outcome)
        settled.store(true, ordering: .relaxed)
    }

    deinit {
        if settled.load(ordering: .acquiring) {
            if destroysOutcome { operation(self, .destroyOutcome, nil) }
            waitForWalks()
            return
        }
        let (phase, waiters) = withControl { control -> (Control.Phase, Unmanaged<Node>?) in
            let phase = control.phase
            guard phase == .pending else { return (phase, nil) }
            control.phase = .abandoned
            defer { control.waiters = nil }
            return (phase, control.waiters)
        }
        switch phase {
        case .settled, .cancelled:
            if destroysOutcome { operation(self, .destroyOutcome, nil) }
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
                releaseIteratively(node)
            }
        case .abandoned:
            break
        }
        // A cancellation walk may still hold this promise's memory, to read its state.
        waitForWalks()
    }

    // MARK: The lock

    /// Runs `body` with ``control``, under the lock.
    @inlinable
    final func withControl<Result>(_ body: (inout Control) -> Result) -> Result {
        if !lockWord.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged { lockSlowly() }
        defer { lockWord.store(0, ordering: .releasing) }
        return body(&control)
    }

    /// Waits for the lock: spins while it is held, yielding the thread after a while.
    @usableFromInline
    final func lockSlowly() {
        var spins = 0
        repeat {
            while lockWord.load(ordering: .relaxed) != 0 {
                spins += 1
                if spins > 64 { sched_yield() }
            }
        } while !lockWord.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
    }

    // MARK: The outcome

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

    /// The outcome of a promise known to have settled.
    @inlinable
    final var settledOutcome: Outcome {
        withUnsafeMutableBytes(of: &payload) { raw in
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
        guard withControl({ $0.phase == .settled || $0.phase == .cancelled }) else { return nil }
        return settledOutcome
    }

    /// Whether the promise has not settled.
    @inlinable
    final var isPending: Bool { withControl { $0.isPending } }

    // MARK: Waiting

    /// Runs `node` once this promise settles, in `drain` (or the drain of this thread) if it has
    /// settled already.
    @inlinable
    final func register(_ node: Node, in drain: UnsafeMutablePointer<Drain>? = nil) {
        let phase = withControl { control -> Control.Phase? in
            control.register(node) ? nil : control.phase
        }
        guard let phase else { return }
        guard node.demandsOutcome else {
            // A cancellation handler on a settled promise runs now if it was cancelled.
            if phase == .cancelled { node.runCancellationHandler() }
            return
        }
        retainForNode()
        if let drain {
            drain.pointee.schedule(node)
        } else {
            Drain.withCurrent { $0.pointee.schedule(node) }
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

    /// Settles with `outcome` unless settled already, and hands the waiters to `drain` (or to the
    /// drain of this thread). Returns whether this call settled the promise.
    @inlinable
    @discardableResult
    final func complete(_ outcome: Outcome, in drain: UnsafeMutablePointer<Drain>? = nil) -> Bool {
        let cancelled = outcome.isCancelled
        let settled = withControl { control -> (waiters: Unmanaged<Node>?, settled: Bool) in
            guard control.isPending else { return (nil, false) }
            storeOutcome(outcome)
            self.settled.store(true, ordering: .releasing)
            return (control.settle(cancelled: cancelled), true)
        }
        guard let waiters = settled.waiters else { return settled.settled }
        if let drain {
            Node.schedule(waiters, of: self, cancelled: cancelled, in: drain)
        } else {
            Drain.withCurrent { Node.schedule(waiters, of: self, cancelled: cancelled, in: $0) }
        }
        return true
    }

    // MARK: Cancellation

    /// The promises this one waits on, each with the node it waits through, while it is pending:
    /// what a cancellation walk withdraws from. Called under ``control``'s lock. A promise that is
    /// not a link waits on none.
    @usableFromInline
    func upstreamsLocked() -> CancellationWalk.Upstreams { .none }

    @usableFromInline
    override final func cancellationStep(withdrawing dependent: Node?) -> CancellationWalk.Step {
        var removed: Unmanaged<Node>? = nil
        defer { removed?.release() }
        return withControl { control in
            if let dependent {
                let withdrawal = control.withdraw(dependent)
                removed = withdrawal.removed
                guard withdrawal.noneDemanding else { return .stop }
            }
            guard control.isPending else { return .stop }
            storeOutcomeCancelled()
            self.settled.store(true, ordering: .releasing)
            let waiters = control.settle(cancelled: true)
            let upstreams = upstreamsLocked()
            upstreams.pin()
            return .cancelled(waiters: waiters, upstreams: upstreams)
        }
    }

    /// Writes `.cancelled` into the payload, from unspecialised code: through ``Node/operation``
    /// would need a second operation, so the one generic write here is the price of a rare path.
    @usableFromInline
    final func storeOutcomeCancelled() {
        storeOutcome(.cancelled)
    }
}

extension Node {
    /// Hands `waiters` (newest first), the waiters of `box`, which has settled, to `drain` in the
    /// order they were registered, each with a reference to `box`; runs the cancellation handlers
    /// among them if it was cancelled, and drops them otherwise.
    @usableFromInline
    static func schedule(
        _ waiters: Unmanaged<Node>, of box: Node, cancelled: Bool, in drain: UnsafeMutablePointer<Drain>
    ) {
        var list = NodeList(reversing: waiters)
        while let node = list.popFirstOwned() {
            guard node._withUnsafeGuaranteedRef({ $0.demandsOutcome }) else {
                let handler = node.takeRetainedValue()
                if cancelled { handler.runCancellationHandler() }
                continue
            }
            _ = Unmanaged.passUnretained(box).retain()
            drain.pointee.schedule(owned: node)
        }
    }
}

extension Promise.Outcome {
    @inlinable
    var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }
}
