public import Dispatch

/// Settles as the first of `promises` to settle, fulfilled or rejected.
///
/// An empty input rejects with ``PromiseError/invalidArgument(_:)`` (the original asserts; a
/// race with no runners would otherwise never settle).
///
/// - Parameters:
///   - queue: Where the inputs are observed.
///   - promises: The promises to race.
/// - Returns: A promise that settles as the first input to settle.
@inlinable
public func race<Value: Sendable, Promises: Sequence<FBLPromise<Value>>>(
    on queue: DispatchQueue = FBLPromise<Value>.defaultQueue,
    _ promises: Promises
) -> FBLPromise<Value> {
    let inputs = Array(promises)
    guard !inputs.isEmpty else {
        return FBLPromise(PromiseError.invalidArgument("race needs at least one promise"))
    }
    let winner = FBLPromise<Value>.pending()
    for input in inputs {
        input.observe(on: queue, fulfill: winner.fulfill, reject: winner.reject)
    }
    return winner
}

/// Variadic form of ``race(on:_:)-(_,Promises)``.
public func race<Value: Sendable>(
    on queue: DispatchQueue = FBLPromise<Value>.defaultQueue,
    _ promises: FBLPromise<Value>...
) -> FBLPromise<Value> {
    race(on: queue, promises)
}
