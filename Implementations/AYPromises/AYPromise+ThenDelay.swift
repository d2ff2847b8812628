import Dispatch
public import PromiseInterface

extension AYPromise {
    /// ``then`` with a pause: the block runs on the main queue `seconds` after this promise is
    /// fulfilled: `promise.thenDelay(0.5) { value in ... }`.
    ///
    /// A rejection skips the block and passes on at once, undelayed. A delay that is negative,
    /// NaN or infinite rejects the next promise with ``AYPromiseError/invalidArgument(_:)`` (the
    /// original does not check it).
    ///
    /// Threading: the block runs on the main queue.
    public var thenDelay: AYOperatorTakingArgument<Double, PromiseValue> {
        AYOperatorTakingArgument { seconds in
            AYOperator { block in self.chainThenDelay(seconds, block) }
        }
    }

    private func chainThenDelay(
        _ seconds: Double, _ block: @escaping @Sendable (PromiseValue) throws -> PromiseValue
    )
        -> AYPromise
    {
        guard seconds.isFinite, seconds >= 0 else {
            let reason = "thenDelay needs a finite, non-negative number of seconds; got \(seconds)"
            return AYPromise(settled: .failure(AYPromiseError.invalidArgument(reason)))
        }
        return chain(on: .main) { outcome, next in
            switch outcome {
            case .success(let value):
                DispatchQueue.main.asyncAfter(deadline: .now() + seconds) {
                    next.resolve(returnedBy: { try block(value) }, on: .main)
                }
            case .failure:
                next.settle(outcome)
            }
        }
    }
}
