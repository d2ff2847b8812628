import Dispatch
import PromiseRuntime

extension AYPromise {
    /// Waits for every input and fulfils with their values in input order, or rejects as soon as
    /// one input rejects, with an ``AYAllRejectedError`` that carries that first error and its
    /// index (the original's wrapper `NSError` with `AYPromiseInternalErrorsKey`).
    ///
    /// ```swift
    /// AYPromise.all([p1, p2, p3])
    ///     .then { values in show(values as! [PromiseValue]) }
    ///     .catch { error in (error as! AYAllRejectedError).internalError }
    /// ```
    ///
    /// Inputs may be promises, thenables or plain values: each goes through ``resolve`` first (an
    /// `Error` element is a rejected input). The fulfilment value is a `[PromiseValue]`. An empty
    /// input fulfils with `[]` at once (the original never settles it).
    ///
    /// A property returning a closure, like the original's class property. Once the result has
    /// settled, inputs still pending no longer keep it alive, nor (after a rejection) the values
    /// gathered so far.
    ///
    /// Threading: inputs may settle on any thread; once they decide the result, it is settled
    /// from a global-queue block, never inside the input's settle, so combinators nested to any
    /// depth (the result of one being an input of the next) settle level by level without deep
    /// recursion.
    public static var all: @Sendable ([PromiseValue]) -> AYPromise {
        { inputs in
            guard !inputs.isEmpty else { return AYPromise(settled: .success([PromiseValue]())) }
            let combined = AYPromise(pending: ())
            let gather = AYGather(combined, count: inputs.count, rule: .all)
            for (index, input) in inputs.enumerated() {
                resolve(input).pipe { outcome in gather.record(outcome, at: index) }
            }
            return combined
        }
    }
}
