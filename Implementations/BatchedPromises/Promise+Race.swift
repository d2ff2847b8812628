extension Promise {
    /// A promise that settles as the first of `promises` to settle, cancelled included.
    ///
    /// ```swift
    /// let page = Promise.race([load(from: server), load(from: cache)])
    /// ```
    ///
    /// Once the result has settled, the inputs still pending are cancelled where no one else
    /// waits for them.
    ///
    /// - Parameter promises: The inputs; with none, the result is cancelled at once.
    @inlinable
    public static func race<Inputs: Sequence>(_ promises: Inputs) -> Promise where Inputs.Element == Promise {
        let aggregate = Aggregate<Value, Failure, Value, Failure>()
        aggregate.attach(to: Array(promises), ifEmpty: .cancelled) { node, operation, drain in
            guard operation == .run else { return }
            AggregateInput<Value, Failure>.run(node, as: Aggregate<Value, Failure, Value, Failure>.self) {
                race, outcome, index in
                race.report(at: index, in: drain!) { outcome }
            }
        }
        return Promise(box: aggregate)
    }
}
