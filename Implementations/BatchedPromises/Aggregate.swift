import Dispatch

/// A promise settled by several inputs, each reporting through a node of its own
/// (``AggregateInput``): the base of `all`, `any` and `race`. Each subclass says what one input's
/// outcome does, under the lock, in the operation it gives its inputs; once the aggregate has
/// settled, the inputs still pending lose their one waiter here and are cancelled where no one
/// else waits for them.
///
/// `@unchecked Sendable`: ``inputs`` and a subclass's tallies are guarded by the control's lock.
@usableFromInline
class Aggregate<Input: Sendable, InputFailure: Error, Value: Sendable, Failure: Error>:
    PromiseBox<Value, Failure>, @unchecked Sendable
{
    @usableFromInline typealias InputOutcome = Promise<Input, InputFailure>.Outcome

    /// The node of each input that has not reported yet (`nil` once it has, or once its input was
    /// freed pending).
    /// Of a type that does not depend on the value types, so that a cancellation walk gathers the
    /// losers in code that is specialised whatever the aggregate (an array of a generic class's
    /// instances is iterated unspecialised, with a metadata lookup per element).
    @exclusivity(unchecked) @usableFromInline final var inputs: [AggregateInputNode?] = []

    @inlinable
    init() {
        super.init(pendingOn: nil) { node, operation, _ in
            if operation == .destroyOutcome { unsafeDowncast(node, to: Aggregate.self).destroyOutcome() }
        }
    }

    /// Waits on every promise of `promises` (from the caller's thread); settles with `empty` at
    /// once if there is none. `operation` is each input node's: it reads the input's outcome and
    /// reports it (``report(at:in:_:)``).
    ///
    /// `promises` holds the inputs while their nodes are made, which hold them by pointer only: an
    /// array, so that a lazy sequence's promises, made as it is iterated, are kept too.
    @inlinable
    final func attach(
        to promises: [Promise<Input, InputFailure>], ifEmpty empty: Outcome,
        operation: @escaping (Node, Operation, UnsafeMutablePointer<Drain>?) -> Void
    ) {
        guard !promises.isEmpty else {
            complete(empty)
            return
        }
        var nodes: [AggregateInputNode?] = []
        nodes.reserveCapacity(promises.count)
        for index in promises.indices {
            nodes.append(
                AggregateInput(aggregate: self, input: promises[index].box, index: index, operation: operation))
        }
        withControl { _ in inputs = nodes }
        for node in nodes { unsafeDowncast(node!, to: AggregateInput<Input, InputFailure>.self).register() }
    }

    /// The input at `index` reported: `decide` (called under the lock, while the aggregate is
    /// pending) says whether that settles the aggregate, and with what; if it does, the inputs
    /// still pending are withdrawn from.
    @inlinable
    final func report(at index: Int, in drain: UnsafeMutablePointer<Drain>, _ decide: () -> Outcome?) {
        let decided = withControl { control -> (outcome: Outcome, losers: CancellationWalk.Upstreams)? in
            // Empty once decided: an input that reports after that changes nothing.
            guard !inputs.isEmpty else { return nil }
            inputs[index] = nil
            guard control.isOpen, let outcome = decide() else { return nil }
            let losers = upstreamsLocked()
            losers.pin()
            inputs = []
            return (outcome, losers)
        }
        guard let decided else { return }
        // The losers first: settling runs user code (cancellation handlers, a local drain), which
        // must not run while the walk holds their pins.
        CancellationWalk.withdraw(pinned: decided.losers)
        complete(decided.outcome, in: drain)
    }

    /// The input at `index` was freed pending: it will never report.
    @usableFromInline
    override final func inputAbandoned(at index: Int) {
        withControl { _ in if !inputs.isEmpty { inputs[index] = nil } }
    }

    @usableFromInline
    override final func withInputsLocked(_ body: () -> Void) {
        withControl { _ in body() }
    }

    @usableFromInline
    override final func upstreamsLocked() -> CancellationWalk.Upstreams {
        var pending: [CancellationWalk.Edge] = []
        pending.reserveCapacity(inputs.count)
        for case let node? in inputs {
            pending.append(
                CancellationWalk.Edge(
                    input: .passUnretained(node.inputCore), dependent: .passUnretained(node),
                    throughForward: node.joinedThroughForward))
        }
        // The input nodes hold this aggregate: kept here, they would keep it for ever. The inputs'
        // waiter lists hold them until the walk withdraws them.
        inputs = []
        return pending.isEmpty ? .none : .many(pending)
    }
}

/// One input of an ``Aggregate``, as its aggregate and a cancellation walk see it: the promise it
/// waits on, with no value types.
///
/// `@unchecked Sendable`: `aggregate` and `index` are set once; `inputCore` is written under the
/// aggregate's lock while the node is in no list (moved to the root its input forwards to). The
/// aggregate is held strongly (it must live to be reported to); the input is not (it holds this
/// node), and is valid while this node is listed in the aggregate's `inputs`, which it leaves
/// before giving the input back.
@usableFromInline
class AggregateInputNode: Node, @unchecked Sendable {
    @usableFromInline let aggregate: Node
    @exclusivity(unchecked) @usableFromInline unowned(unsafe) var inputCore: PromiseCore
    @usableFromInline let index: Int

    @inlinable
    init(
        aggregate: Node, input: PromiseCore, index: Int,
        operation: @escaping (Node, Operation, UnsafeMutablePointer<Drain>?) -> Void
    ) {
        self.aggregate = aggregate
        self.inputCore = input
        self.index = index
        super.init(queue: nil, operation: operation)
    }

    @usableFromInline
    override final func inputAbandoned() {
        aggregate.inputAbandoned(at: index)
    }

    /// Under the aggregate's lock: a cancellation walk reads the input through the aggregate.
    @usableFromInline
    override final func retarget(from old: Node, to new: Node) {
        aggregate.withInputsLocked {
            if inputCore === old {
                inputCore = unsafeDowncast(new, to: PromiseCore.self)
                joinedThroughForward = true
            }
        }
    }
}

/// One input of an ``Aggregate``: waits on the input and reports its outcome, through the
/// operation its aggregate gave it.
@usableFromInline
final class AggregateInput<Input: Sendable, InputFailure: Error>: AggregateInputNode, @unchecked Sendable {
    /// The promise it waits on.
    @inlinable
    var input: PromiseBox<Input, InputFailure> { unsafeDowncast(inputCore, to: PromiseBox<Input, InputFailure>.self) }

    @inlinable
    init(
        aggregate: Node, input: PromiseBox<Input, InputFailure>, index: Int,
        operation: @escaping (Node, Operation, UnsafeMutablePointer<Drain>?) -> Void
    ) {
        super.init(aggregate: aggregate, input: input, index: index, operation: operation)
    }

    /// Waits on the input (from the caller's thread).
    @inlinable
    func register() {
        input.register(self)
    }

    /// What the operation of an aggregate's input does: reads the input's outcome, hands it to
    /// `report` with the aggregate, then gives the input back.
    @inlinable
    static func run<Aggregated: AnyObject>(
        _ node: Node, as _: Aggregated.Type, _ report: (Aggregated, Promise<Input, InputFailure>.Outcome, Int) -> Void
    ) {
        let input = unsafeDowncast(node, to: AggregateInput.self)
        let outcome = input.input.settledOutcome
        report(unsafeDowncast(input.aggregate, to: Aggregated.self), outcome, input.index)
        input.input.releaseFromNode()
    }
}
