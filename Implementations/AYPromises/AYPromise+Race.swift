import Dispatch
import PromiseRuntime

extension AYPromise {
    /// Fulfils with the first input to be *fulfilled*; rejects only when every input has
    /// rejected, with an ``AYRaceRejectedError`` carrying every input's error in input order.
    ///
    /// This is AYPromise's own `race` (a logical "or"), not the usual one: a rejection does not
    /// end the race while another input may still fulfil.
    ///
    /// ```swift
    /// AYPromise.race([mirror1, mirror2, mirror3])
    ///     .then { fastest in use(fastest) }
    ///     .catch { error in (error as! AYRaceRejectedError).internalErrors }
    /// ```
    ///
    /// Inputs may be promises, thenables or plain values (each goes through ``resolve``). An empty
    /// input rejects with ``AYPromiseError/emptyRace`` at once (the original never settles it).
    ///
    /// A property returning a closure, like the original's class property. Once the result has
    /// settled, inputs still pending no longer keep it alive.
    ///
    /// Threading: inputs may settle on any thread; once they decide the result, it is settled
    /// from a global-queue block, never inside the input's settle, so combinators nested to any
    /// depth (the result of one being an input of the next) settle level by level without deep
    /// recursion.
    public static var race: @Sendable ([PromiseValue]) -> AYPromise {
        { inputs in
            guard !inputs.isEmpty else { return AYPromise(settled: .failure(AYPromiseError.emptyRace)) }
            let combined = AYPromise(pending: ())
            let gather = AYGather(combined, count: inputs.count, rule: .race)
            for (index, input) in inputs.enumerated() {
                resolve(input).pipe { outcome in gather.record(outcome, at: index) }
            }
            return combined
        }
    }
}
