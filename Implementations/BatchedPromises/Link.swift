public import Dispatch

/// A promise settled by a step that runs when another promise, its input, settles: the promise
/// `map`, `flatMap`, `recover` and the other operators return. One object holds the promise, the
/// step and the queue the step runs on; each operator's file subclasses it with its step, run by
/// the operation it passes (``Node/operation``).
///
/// `@unchecked Sendable`: ``input`` is guarded by the lock of ``PromiseBox/control``; a subclass's
/// step fields are read only by its step, on the one thread that drains the link.
@usableFromInline
class Link<Input: Sendable, InputFailure: Error, Value: Sendable, Failure: Error>:
    PromiseBox<Value, Failure>, @unchecked Sendable
{
    @usableFromInline typealias InputOutcome = Promise<Input, InputFailure>.Outcome

    /// The promise this one waits on, while it waits: set when the link is made, taken when it
    /// runs, and forgotten if the input is freed pending. Not a strong reference: the input keeps
    /// the link (in its waiters), not the other way round, and a scheduled link holds the input
    /// through the reference the input gave it (``Node``).
    @exclusivity(unchecked) @usableFromInline final unowned(unsafe) var input: PromiseBox<Input, InputFailure>?

    /// A pending link on `input`, whose step runs on `queue` through `operation`.
    @inlinable
    init(
        input: PromiseBox<Input, InputFailure>, queue: DispatchQueue?,
        operation: @escaping (Node, Operation, UnsafeMutablePointer<Drain>?) -> Void
    ) {
        self.input = input
        super.init(pendingOn: queue, operation: operation)
    }

    /// Waits on the input (from the caller's thread).
    @inlinable
    final func attach() {
        input!.register(self)
    }

    /// Runs `step` with the input's outcome, unless the link was cancelled while it waited to run;
    /// then gives the input back. The input is taken under the lock first: from then on a
    /// cancellation walk no longer reads it.
    @inlinable
    final func runStep(_ step: (InputOutcome) -> Void) {
        // Unmanaged: the reference the input gave this node when it scheduled it keeps it alive
        // until the release below, so taking it costs no reference counting.
        let taken = withControl { control -> (source: Unmanaged<PromiseBox<Input, InputFailure>>, cancelled: Bool)? in
            guard let source = input else { return nil }
            input = nil
            return (.passUnretained(source), control.phase == .cancelled)
        }
        guard let taken else { return }
        if !taken.cancelled { step(taken.source._withUnsafeGuaranteedRef { $0.settledOutcome }) }
        taken.source.release()
    }

    @usableFromInline
    override func upstreamsLocked() -> CancellationWalk.Upstreams {
        guard let input else { return .none }
        return .one(input, through: self)
    }

    @usableFromInline
    override func inputAbandoned() {
        withControl { _ in input = nil }
    }

    @usableFromInline
    override func retarget(from old: Node, to new: Node) {
        withControl { _ in
            if input === old {
                input = unsafeDowncast(new, to: PromiseBox<Input, InputFailure>.self)
                joinedThroughForward = true
            }
        }
    }
}
