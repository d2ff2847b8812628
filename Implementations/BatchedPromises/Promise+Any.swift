extension Promise {
    /// A promise of the first value any of `promises` is fulfilled with; rejected with every
    /// failure, in the inputs' order, if all of them are rejected.
    ///
    /// ```swift
    /// let page = Promise.any([load(from: mirror1), load(from: mirror2)])   // the first mirror that answers
    /// ```
    ///
    /// Cancelled inputs count as failed; if every input was cancelled, the result is cancelled.
    /// Once the result has settled, the inputs still pending are cancelled where no one else
    /// waits for them.
    ///
    /// - Parameter promises: The inputs; none rejects at once with no failure.
    @inlinable
    public static func any<Inputs: Sequence>(_ promises: Inputs) -> Promise<Value, AllRejected<Failure>>
    where Inputs.Element == Promise {
        let inputs = Array(promises)
        let aggregate = AnyAggregate<Value, Failure>(count: inputs.count)
        aggregate.attach(to: inputs, ifEmpty: .rejected(AllRejected(failures: []))) { node, operation, drain in
            guard operation == .run else { return }
            AggregateInput<Value, Failure>.run(node, as: AnyAggregate<Value, Failure>.self) { any, outcome, index in
                any.report(at: index, in: drain!) { any.receive(outcome, at: index) }
            }
        }
        return Promise<Value, AllRejected<Failure>>(box: aggregate)
    }
}

/// Every input of ``Promise/any(_:)`` was rejected: their failures, in the inputs' order.
public struct AllRejected<Failure: Error>: Error {
    /// The failures, one per input that was rejected, in the inputs' order.
    public let failures: [Failure]

    @inlinable
    public init(failures: [Failure]) {
        self.failures = failures
    }
}

/// The aggregate of ``Promise/any(_:)``.
@usableFromInline
final class AnyAggregate<Value: Sendable, Failure: Error>:
    Aggregate<Value, Failure, Value, AllRejected<Failure>>, @unchecked Sendable
{
    // `@unchecked Sendable`: as `Aggregate`; the tallies are guarded by the control's lock.
    @exclusivity(unchecked) @usableFromInline var failures: [Failure?]
    @exclusivity(unchecked) @usableFromInline var missing: Int

    @inlinable
    init(count: Int) {
        failures = Array(repeating: nil, count: count)
        missing = count
        super.init()
    }

    /// The outcome of the input at `index`: the aggregate's outcome once that decides it.
    @inlinable
    func receive(_ outcome: InputOutcome, at index: Int) -> Outcome? {
        switch outcome {
        case .fulfilled(let value): return .fulfilled(value)
        case .rejected(let failure): failures[index] = failure
        case .cancelled: break
        }
        missing -= 1
        guard missing == 0 else { return nil }
        let rejected = failures.compactMap { $0 }
        return rejected.isEmpty ? .cancelled : .rejected(AllRejected(failures: rejected))
    }
}
