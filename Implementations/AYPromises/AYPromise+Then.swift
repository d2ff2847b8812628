public import Dispatch
public import PromiseInterface

extension AYPromise {
    /// Chains a block that runs on the main queue with the value once this promise is fulfilled.
    ///
    /// A rejection skips the block and passes on to the next promise. What the block returns
    /// decides the next promise (see ``AYOperator``).
    ///
    /// ```swift
    /// AYPromise.with("aaa").then { value in (value as! String) + "bbb" }
    /// ```
    ///
    /// Threading: the block runs on the main queue, asynchronously, even if this promise has
    /// already been fulfilled.
    public var then: AYOperator<PromiseValue> {
        AYOperator { block in self.chainThen(on: .main, block) }
    }

    /// ``then`` on a global queue (`DispatchQueue.global()`, the original's
    /// `dispatch_get_global_queue(0, 0)`).
    public var thenAsync: AYOperator<PromiseValue> {
        AYOperator { block in self.chainThen(on: .global(), block) }
    }

    /// ``then`` on the queue given: `promise.thenOn(queue) { value in ... }`.
    public var thenOn: AYOperatorTakingArgument<DispatchQueue, PromiseValue> {
        AYOperatorTakingArgument { queue in
            AYOperator { block in self.chainThen(on: queue, block) }
        }
    }

    /// The original's `__then`: the block for a fulfilment, the rejection passed on.
    func chainThen(
        on queue: DispatchQueue, _ block: @escaping @Sendable (PromiseValue) throws -> PromiseValue
    )
        -> AYPromise
    {
        chain(on: queue) { outcome, next in
            switch outcome {
            case .success(let value): next.resolve(returnedBy: { try block(value) }, on: queue)
            case .failure: next.settle(outcome)
            }
        }
    }
}
