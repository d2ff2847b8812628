public import Synchronization

/// Cancellation, which flows from a promise to the promises it waits on.
///
/// Cancelling a pending promise settles it as cancelled: its waiters see `.cancelled`, a link's
/// callback never runs, and its cancellation handlers run (the producer's, to stop its work).
/// Then the promise withdraws from the promises it waits on; one left with no waiter that wants
/// its outcome is cancelled in turn, and so on up the chain. A promise another dependent still
/// waits for is not cancelled.
///
/// A node holds no strong reference to the promise it waits on (so that a pending chain is no
/// reference cycle), so the walk up the chain must keep each promise's memory valid while it
/// reads it. It reads a promise's inputs under the promise's own lock, while they are guaranteed
/// valid: an input that has scheduled the promise is kept by the reference it gave it, and a
/// pending input, if freed, first takes this promise's lock to let it go. There it *pins* each
/// input (``Node/pins``), whose deinitializer waits until the walk has left it. One lock is held at
/// a time, and the walk is a loop: cancelling the end of a 100,000-link chain needs no deep stack.
@usableFromInline
enum CancellationWalk {
    /// A promise a walk reaches, or the node it waits through: not a strong reference (the walk
    /// holds the first promise through its caller, and pins every other).
    @usableFromInline typealias Reference = Unmanaged<Node>

    /// One promise a pending promise waits on, and the node it waits through.
    @usableFromInline
    struct Edge {
        @usableFromInline let input: Reference
        @usableFromInline let dependent: Reference
        /// Whether the dependent joined `input` through a promise that forwards to it (see
        /// ``Node/joinedThroughForward``): the promise that adopted that one still waits for it,
        /// so the walk withdraws the dependent and goes no further.
        @usableFromInline let throughForward: Bool

        @inlinable
        init(input: Reference, dependent: Reference, throughForward: Bool) {
            self.input = input
            self.dependent = dependent
            self.throughForward = throughForward
        }

        /// The walk's visit to `input`, pinned.
        @inlinable
        var visit: Visit { (input, dependent, true, throughForward) }
    }

    /// The promises a pending promise waits on, each with the node it waits through.
    @usableFromInline
    enum Upstreams {
        case none
        case one(Edge)
        case many([Edge])

        /// One input, through `dependent` (read under the lock that guards `dependent`'s input).
        @inlinable
        static func one(_ input: Node, through dependent: Node) -> Upstreams {
            .one(
                Edge(
                    input: .passUnretained(input), dependent: .passUnretained(dependent),
                    throughForward: dependent.joinedThroughForward
                )
            )
        }

        /// Pins every input, under the lock of the promise that waits on them.
        @inlinable
        func pin() {
            switch self {
            case .none: break
            case .one(let edge):
                edge.input._withUnsafeGuaranteedRef { _ = $0.pins.add(1, ordering: .acquiringAndReleasing) }
            case .many(let all):
                for edge in all {
                    edge.input._withUnsafeGuaranteedRef { _ = $0.pins.add(1, ordering: .acquiringAndReleasing) }
                }
            }
        }
    }

    /// A reference a step took out of a promise, which the walk lets go of once it is over.
    @usableFromInline
    enum Removed {
        case none
        /// A waiter withdrawn from the promise's list (in no list now).
        case waiter(Unmanaged<Node>)
        /// The root a forwarding promise held (it may be in a list of its own).
        case forward(Unmanaged<Node>)
    }

    /// What one step did with one promise.
    @usableFromInline
    enum Step {
        /// Nothing to cancel: the promise has settled, or others still wait for it.
        case stop
        /// The promise is cancelled now: its waiters (newest first) are to learn it, and the walk
        /// goes on to the pinned upstreams.
        case cancelled(waiters: Unmanaged<Node>?, upstreams: Upstreams)
    }

    /// One step of a walk: a promise, the dependent that withdraws from it (none when the caller
    /// cancels it), whether the walk pinned it (every promise but the first), and whether the
    /// dependent joined it through a forward (the walk then only withdraws it, ``Edge``).
    @usableFromInline
    typealias Visit = (box: Reference, dependent: Reference?, pinned: Bool, throughForward: Bool)

    /// Cancels `box` (a promise the caller holds) and walks up from it. A promise that forwards
    /// to another is that other promise: the walk starts at its root.
    @inlinable
    static func cancel<Value, Failure>(_ box: PromiseBox<Value, Failure>) {
        walk(from: (.passUnretained(box.root), nil, false, false))
    }

    /// Takes `dependent` out of the waiters of `box`'s root (the caller holds `box`); if no one
    /// else wants its outcome, cancels it and walks up from it. When `box` forwards to its root,
    /// the promise that adopted it waits for it: the walk withdraws `dependent` and stops.
    @inlinable
    static func withdraw<Value, Failure>(_ dependent: Node, from box: PromiseBox<Value, Failure>) {
        let root = box.root
        walk(from: (.passUnretained(root), .passUnretained(dependent), false, root !== box))
    }

    /// Cancels the work `promise` stands for, a promise that forwards to a root no one wants any
    /// more: the promise itself, and what it waits on.
    @usableFromInline
    static func cancelWork(of promise: Node) {
        walk(from: (.passUnretained(promise), nil, false, false))
    }

    /// Withdraws each dependent of `upstreams` from its input, pinned by the caller (under the lock
    /// of the promise that waited on them): an aggregate that settled lets its other inputs go.
    @usableFromInline
    static func withdraw(pinned upstreams: Upstreams) {
        switch upstreams {
        case .none: break
        case .one(let edge): walk(from: edge.visit)
        case .many(let all): walk(from: nil, then: all.map(\.visit))
        }
    }

    /// The walk: a loop over the promises to visit, a chain's next one kept out of the list.
    ///
    /// No user code runs while the walk holds pins: a cancellation handler, or the last reference
    /// to a closure, may drop the last reference to a promise the walk has pinned, whose
    /// deinitializer would then wait for the walk on the walk's own thread. So the walk first
    /// cancels and withdraws, and only once it has let every pin go does it hand the first
    /// promise's waiters out, run the cancellation handlers in the order it met them, and
    /// release what it took out of the lists.
    @usableFromInline
    static func walk(from first: Visit?, then others: [Visit] = []) {
        var pending = others
        var following = first
        var firstCancelled: (box: Reference, waiters: Unmanaged<Node>)? = nil
        var handlers = NodeList()
        var withdrawn = NodeList()
        var forwards: [Unmanaged<Node>] = []
        while let (box, dependent, pinned, throughForward) = following ?? pending.popLast() {
            following = nil
            let (step, removed) = box._withUnsafeGuaranteedRef {
                $0.cancellationStep(withdrawing: dependent, handsOut: !pinned, onlyWithdraw: throughForward)
            }
            if pinned { box._withUnsafeGuaranteedRef { _ = $0.pins.subtract(1, ordering: .acquiringAndReleasing) } }
            switch removed {
            case .none: break
            case .waiter(let node): withdrawn.append(owned: node)
            case .forward(let root): forwards.append(root)
            }
            guard case .cancelled(let waiters, let upstreams) = step else { continue }
            if let waiters {
                if pinned {
                    // Reached by pointer: only its cancellation handlers can be left, since a
                    // waiter that wanted its outcome would have kept it from being cancelled.
                    // The list owns them: they need nothing of the promise.
                    handlers.append(contentsOf: NodeList(reversing: waiters))
                } else {
                    // Held by the caller: its waiters learn of the cancellation.
                    firstCancelled = (box, waiters)
                }
            }
            switch upstreams {
            case .none: break
            case .one(let edge): following = edge.visit
            case .many(let all): pending += all.map(\.visit)
            }
        }
        if let (box, waiters) = firstCancelled {
            box._withUnsafeGuaranteedRef { box in
                // Only a promise has waiters to hand out.
                let promise = unsafeDowncast(box, to: PromiseCore.self)
                Drain.withCurrent { drain in promise.handOut(waiters, cancelled: true, in: drain) }
            }
        }
        while let handler = handlers.popFirst() {
            assert(!handler.demandsOutcome, "a promise cancelled by a walk kept a waiter that wants it")
            handler.runCancellationHandler()
        }
        while let node = withdrawn.popFirstOwned() { node.release() }
        for root in forwards { root.release() }
    }
}
