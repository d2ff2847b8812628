public import Dispatch
public import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Something that runs once a promise settles: a link (which is itself the promise it settles), an
/// observer, an aggregator's input, an awaiting task, a cancellation handler.
///
/// A node is in at most one list at a time, through ``next``: first the waiter list of the promise
/// it waits on, then the queue of the drain that runs it (``Drain``). Whichever list holds it owns
/// one reference to it, counted by hand (``NodeList``): moving a node from list to list costs no
/// reference counting. A promise that schedules a node gives it one reference to itself, which
/// the node gives back once it has read the outcome; a node therefore needs no strong reference to
/// its input, and a pending chain is no reference cycle.
///
/// ## Specialised work, generic classes
/// The node classes are generic over the values they carry, and a generic class's methods run
/// unspecialised: every use of a generic type in them asks the runtime for its metadata, which
/// would cost several times what the rest of a link costs. So what depends on the value types
/// runs in ``operation``, a closure made where the node is made, in code that the caller
/// specialises (the operators are inlinable), and the classes' stored properties have layouts
/// that do not depend on the value types (a promise's outcome is kept in raw storage,
/// ``PromiseBox/payload``).
///
/// `@unchecked Sendable`: ``next`` is guarded by the lock of the promise whose waiter list holds
/// the node, and owned by the one thread that drains it afterwards; ``queue`` is written only while
/// the node is in no list; ``pins`` is atomic; ``operation`` is a constant.
@usableFromInline
class Node: @unchecked Sendable {
    /// What a node's ``operation`` is asked to do.
    @usableFromInline
    enum Operation {
        /// Run: the promise it waited on has settled (or, for an adopting link, the one it adopted).
        case run
        /// Destroy the outcome a settled promise keeps (from its deinitializer).
        case destroyOutcome
    }

    /// The node's work, specialised for its value types where it was made.
    @usableFromInline final let operation: (Node, Operation, UnsafeMutablePointer<Drain>?) -> Void

    /// The next node of the list that holds this one; the list owns it, not this node.
    @exclusivity(unchecked) @usableFromInline final var next: Unmanaged<Node>?

    /// Where the node runs: in a drain of this queue, or, when `nil`, wherever the promise it
    /// waits on settles (internal steps that run no user code).
    @exclusivity(unchecked) @usableFromInline final var queue: DispatchQueue?

    /// ``queue``'s address, for a drain that compares it with its own with no reference counting.
    @inlinable
    final var queueAddress: UnsafeMutableRawPointer? {
        queue.map { Unmanaged.passUnretained($0).toOpaque() }
    }

    /// How many cancellation walks hold this node's memory (``CancellationWalk``): a promise's
    /// deinitializer waits until none does.
    @usableFromInline final let pins = Atomic<UInt32>(0)

    /// Whether a promise has settled, and how (``Settled``): for its deinitializer, which then
    /// needs no lock, and for the nodes that read its outcome, which must not read ``PromiseBox/control``
    /// outside the lock (the settler may still hold it, handing out late registrants). Set once,
    /// under the lock, after the outcome is stored.
    @usableFromInline final let settled = Atomic<UInt8>(Settled.not)

    /// The values of ``settled``.
    @usableFromInline
    enum Settled {
        @usableFromInline static let not: UInt8 = 0
        /// With an outcome, in the promise's payload.
        @usableFromInline static let withOutcome: UInt8 = 1
        /// As cancelled: no payload.
        @usableFromInline static let cancelled: UInt8 = 2

        @inlinable
        static func state(cancelled: Bool) -> UInt8 { cancelled ? Settled.cancelled : withOutcome }
    }

    /// Whether the node wants its input's outcome. A cancellation handler does not: a promise
    /// whose only waiters are handlers has no one left to settle for.
    @usableFromInline final let demandsOutcome: Bool

    /// Whether a settled promise's outcome needs destroying (``Operation/destroyOutcome``): not
    /// when its types hold no references.
    @usableFromInline final let destroysOutcome: Bool

    /// Whether the node joined the promise it waits on through another that forwards to it (an
    /// adopted promise, ``retarget(from:to:)``). The promise that adopted that one waits for it,
    /// so this node's cancellation must not cancel it. Guarded by the lock that guards the node's
    /// reference to its input.
    @exclusivity(unchecked) @usableFromInline final var joinedThroughForward = false

    @inlinable
    init(
        queue: DispatchQueue?, demandsOutcome: Bool = true, destroysOutcome: Bool = false,
        operation: @escaping (Node, Operation, UnsafeMutablePointer<Drain>?) -> Void
    ) {
        self.queue = queue
        self.demandsOutcome = demandsOutcome
        self.destroysOutcome = destroysOutcome
        self.operation = operation
        if HeapTrimming.isSampled(self) { HeapTrimming.made.wrappingAdd(1, ordering: .relaxed) }
    }

    deinit {
        if HeapTrimming.isSampled(self) { HeapTrimming.sampledObjectFreed() }
    }

    /// Runs the node in `drain`, which it may give more nodes to run.
    @inlinable
    final func run(_ drain: UnsafeMutablePointer<Drain>) {
        operation(self, .run, drain)
    }

    /// Waits until no cancellation walk holds this node's memory (rare: a walk reaches a
    /// promise's input while the input is freed).
    @usableFromInline
    final func waitForWalks() {
        while pins.load(ordering: .acquiring) != 0 { sched_yield() }
    }

    /// Runs a cancellation handler (``demandsOutcome`` is `false`) once its promise is cancelled.
    @usableFromInline
    func runCancellationHandler() {}

    /// The promise this node waited on was freed before it settled: forget it (the node will
    /// never run). Called with no lock held.
    @usableFromInline
    func inputAbandoned() {}

    /// An aggregate's input at `index` was freed before it settled: it will never report.
    @usableFromInline
    func inputAbandoned(at index: Int) {}

    /// One step of a cancellation walk on a promise (``CancellationWalk``); a node that is not a
    /// promise has nothing to cancel.
    @usableFromInline
    func cancellationStep(
        withdrawing dependent: Unmanaged<Node>?, handsOut: Bool, onlyWithdraw: Bool
    ) -> (step: CancellationWalk.Step, removed: CancellationWalk.Removed) {
        (.stop, .none)
    }

    /// The promise this node waits on, `old`, forwards to `new` now: the node waits on `new`
    /// instead, and reads it when it runs. Called before the node is registered on `new`, while
    /// it runs nowhere.
    @usableFromInline
    func retarget(from old: Node, to new: Node) {}

    /// Runs `body` under the lock that guards what points at this node's inputs: an aggregate's,
    /// whose list of inputs a cancellation walk reads.
    @usableFromInline
    func withInputsLocked(_ body: () -> Void) { body() }
}

/// A list of nodes in order, which owns one reference to each (taken when a node is added, and
/// handed over with the node when it is taken out).
@usableFromInline
struct NodeList {
    @usableFromInline var head: Unmanaged<Node>?
    @usableFromInline var tail: Unmanaged<Node>?

    @inlinable
    init() {}

    /// The list of the nodes `first` heads, linked newest first (a waiter list), in the order
    /// they were added; the references the waiter list owned pass to this one.
    @inlinable
    init(reversing first: Unmanaged<Node>?) {
        var current = first
        var reversed: Unmanaged<Node>? = nil
        tail = first
        while let node = current {
            current = node._withUnsafeGuaranteedRef { object in
                let following = object.next
                object.next = reversed
                return following
            }
            reversed = node
        }
        head = reversed
    }

    @inlinable
    var isEmpty: Bool { head == nil }

    /// Adds `node`, which the list now owns a reference to.
    @inlinable
    mutating func append(_ node: Node) {
        append(owned: Unmanaged.passRetained(node))
    }

    /// Adds a node whose reference passes to the list.
    @inlinable
    mutating func append(owned node: Unmanaged<Node>) {
        if let tail { tail._withUnsafeGuaranteedRef { $0.next = node } } else { head = node }
        tail = node
    }

    /// Adds every node of `other`, in order, with the references it owned.
    @inlinable
    mutating func append(contentsOf other: NodeList) {
        guard let otherHead = other.head else { return }
        if let tail { tail._withUnsafeGuaranteedRef { $0.next = otherHead } } else { head = otherHead }
        tail = other.tail
    }

    /// Takes the first node out, with the list's reference to it.
    @inlinable
    mutating func popFirst() -> Node? {
        guard let node = head else { return nil }
        let object = node.takeRetainedValue()
        head = object.next
        object.next = nil
        if head == nil { tail = nil }
        return object
    }

    /// Takes the first node out as an owned reference.
    @inlinable
    mutating func popFirstOwned() -> Unmanaged<Node>? {
        guard let node = head else { return nil }
        node._withUnsafeGuaranteedRef { object in
            head = object.next
            object.next = nil
        }
        if head == nil { tail = nil }
        return node
    }
}
