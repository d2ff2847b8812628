extension Promise {
    /// A promise of every value of `promises`, in their order, once all are fulfilled; rejected
    /// with the first failure, or cancelled by the first cancellation, as soon as one happens.
    ///
    /// ```swift
    /// let avatars = Promise.all(contacts.map { loadAvatar(of: $0) })   // Promise<[Avatar], APIError>
    /// ```
    ///
    /// No callback of its own runs on a queue: each input reports where it settles, under the
    /// aggregate's lock, and only the callbacks on the result run on their queues. Once the result
    /// has settled, the inputs still pending are cancelled where no one else waits for them.
    ///
    /// - Parameter promises: The inputs; none fulfils at once with `[]`.
    @inlinable
    public static func all<Inputs: Sequence>(_ promises: Inputs) -> Promise<[Value], Failure>
    where Inputs.Element == Promise {
        let inputs = Array(promises)
        let aggregate = AllAggregate<Value, Failure>(count: inputs.count)
        aggregate.attach(to: inputs, ifEmpty: .fulfilled([])) { node, operation, drain in
            guard operation == .run else { return }
            AggregateInput<Value, Failure>.run(node, as: AllAggregate<Value, Failure>.self) { all, outcome, index in
                all.report(at: index, in: drain!) { all.receive(outcome, at: index) }
            }
        }
        return Promise<[Value], Failure>(box: aggregate)
    }
}

/// The aggregate of ``Promise/all(_:)``.
@usableFromInline
final class AllAggregate<Value: Sendable, Failure: Error>: Aggregate<Value, Failure, [Value], Failure>,
    @unchecked Sendable
{
    // `@unchecked Sendable`: as `Aggregate`; the tallies are guarded by the control's lock.
    @exclusivity(unchecked) @usableFromInline var values: [Value?]
    @exclusivity(unchecked) @usableFromInline var missing: Int

    @inlinable
    init(count: Int) {
        values = Array(repeating: nil, count: count)
        missing = count
        super.init()
    }

    /// The outcome of the input at `index`: the aggregate's outcome once that decides it.
    @inlinable
    func receive(_ outcome: InputOutcome, at index: Int) -> Outcome? {
        switch outcome {
        case .fulfilled(let value):
            values[index] = value
            missing -= 1
            guard missing == 0 else { return nil }
            let all = values.map { $0! }
            values = []
            return .fulfilled(all)
        case .rejected(let failure): return .rejected(failure)
        case .cancelled: return .cancelled
        }
    }
}
