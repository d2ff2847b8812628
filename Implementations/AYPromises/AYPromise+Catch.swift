public import Dispatch
import PromiseRuntime

extension AYPromise {
    /// Chains a block that runs on the main queue with the error once this promise is rejected,
    /// and recovers from it.
    ///
    /// What the block returns decides the next promise (see ``AYOperator``): a plain value or
    /// nothing fulfils it, so the `then`s after a `catch` run and the `catch`es after it are
    /// skipped; returning or throwing an error rejects it again. A fulfilment skips the block and
    /// passes on unchanged.
    ///
    /// ```swift
    /// promise
    ///     .then { value in try parse(value) }
    ///     .catch { error in log(error) }        // handled: the next catch is skipped
    ///     .catch { error in unreachable() }
    /// ```
    ///
    /// Threading: the block runs on the main queue, asynchronously.
    public var `catch`: AYOperator<any Error> {
        AYOperator(source: self, route: .catch(on: .main))
    }

    /// ``catch`` on a global queue (`DispatchQueue.global()`).
    public var catchAsync: AYOperator<any Error> {
        AYOperator(source: self, route: .catch(on: .global()))
    }

    /// ``catch`` on the queue given: `promise.catchOn(queue) { error in ... }`.
    public var catchOn: AYOperatorTakingArgument<DispatchQueue, any Error> {
        AYOperatorTakingArgument(source: self) { queue in .catch(on: queue) }
    }
}
