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
    /// The promises a pending promise waits on, each with the node it waits through.
    @usableFromInline
    enum Upstreams {
        case none
        case one(input: Node, dependent: Node)
        case many([(input: Node, dependent: Node)])

        /// Pins every input, under the lock of the promise that waits on them.
        @inlinable
        func pin() {
            switch self {
            case .none: break
            case .one(let input, _): input.pins.add(1, ordering: .acquiringAndReleasing)
            case .many(let all): for (input, _) in all { input.pins.add(1, ordering: .acquiringAndReleasing) }
            }
        }
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

    /// Cancels `box` (a promise the caller holds) and walks up from it.
    @inlinable
    static func cancel(_ box: Node) {
        walk(from: box, withdrawing: nil)
    }

    /// Takes `dependent` out of `box`'s waiters (the caller holds `box`); if no one else wants its
    /// outcome, cancels it and walks up from it.
    @inlinable
    static func withdraw(_ dependent: Node, from box: Node) {
        walk(from: box, withdrawing: dependent)
    }

    /// Withdraws each dependent of `upstreams` from its input, pinned by the caller (under the lock
    /// of the promise that waited on them): an aggregate that settled lets its other inputs go.
    @usableFromInline
    static func withdraw(pinned upstreams: Upstreams) {
        switch upstreams {
        case .none: break
        case .one(let input, let dependent): walk([(input, dependent, true)])
        case .many(let all): walk(all.map { ($0.input, $0.dependent, true) })
        }
    }

    /// The walk from a promise the caller holds.
    @usableFromInline
    static func walk(from start: Node, withdrawing first: Node?) {
        walk([(start, first, false)])
    }

    /// The walk: each step's promise is held by the caller, or pinned.
    @usableFromInline
    static func walk(_ start: [(box: Node, dependent: Node?, pinned: Bool)]) {
        var pending = start
        while let (box, dependent, pinned) = pending.popLast() {
            let step = box.cancellationStep(withdrawing: dependent)
            if case .cancelled(let waiters, let upstreams) = step {
                if let waiters {
                    if pinned {
                        // Reached by pointer: only its cancellation handlers can be left, since a
                        // waiter that wanted its outcome would have kept it from being cancelled.
                        var list = NodeList(reversing: waiters)
                        while let node = list.popFirst() {
                            assert(!node.demandsOutcome, "a promise cancelled by a walk kept a waiter that wants it")
                            node.runCancellationHandler()
                        }
                    } else {
                        // Held by the caller: its waiters run with the cancellation.
                        Drain.withCurrent { drain in Node.schedule(waiters, of: box, cancelled: true, in: drain) }
                    }
                }
                switch upstreams {
                case .none: break
                case .one(let input, let dependent): pending.append((input, dependent, true))
                case .many(let all): pending += all.map { ($0.input, $0.dependent, true) }
                }
            }
            if pinned { box.pins.subtract(1, ordering: .acquiringAndReleasing) }
        }
    }
}
