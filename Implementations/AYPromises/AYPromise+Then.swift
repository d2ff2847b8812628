public import Dispatch
import PromiseRuntime

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
        AYOperator(source: self, route: .then(on: .main))
    }

    /// ``then`` on a global queue (`DispatchQueue.global()`, the original's
    /// `dispatch_get_global_queue(0, 0)`).
    public var thenAsync: AYOperator<PromiseValue> {
        AYOperator(source: self, route: .then(on: .global()))
    }

    /// ``then`` on the queue given: `promise.thenOn(queue) { value in ... }`.
    public var thenOn: AYOperatorTakingArgument<DispatchQueue, PromiseValue> {
        AYOperatorTakingArgument(source: self) { queue in .then(on: queue) }
    }

}
