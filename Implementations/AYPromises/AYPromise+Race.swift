import Dispatch
public import PromiseInterface

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
            let gather = AYRaceGather(combined, count: inputs.count)
            for (index, input) in inputs.enumerated() {
                resolve(input).pipe { outcome in gather.record(outcome, at: index) }
            }
            return combined
        }
    }
}

/// The bookkeeping behind ``AYPromise/race``: the errors so far, in input order.
final class AYRaceGather: Sendable {
    private struct Slots {
        var errors: [(any Error)?]
        var missing: Int
        /// `nil` once settled, so inputs that are still pending do not keep it alive.
        var combined: AYPromise?
    }

    /// Guards the errors received so far, the count still missing and the combined promise.
    private let slots: PromiseMutex<Slots>

    init(_ combined: AYPromise, count: Int) {
        slots = PromiseMutex(Slots(errors: Array(repeating: nil, count: count), missing: count, combined: combined))
    }

    /// Records one input's outcome; on the first value or the last error, settles the combined promise
    /// from a global-queue block, outside the lock.
    ///
    /// Not on this stack: this runs in an input's handler, inside that input's settle, and the
    /// combined promise may itself be an input of another `all` or `race`. Settling it here would
    /// settle the next level inside this one, one set of stack frames per level: 100,000 nested
    /// combinators (`acc = AYPromise.all([acc, p])` in a loop) would overflow the stack.
    func record(_ outcome: AYOutcome, at index: Int) {
        let settle: (AYPromise, AYOutcome)? = slots.withLock { slots in
            guard let combined = slots.combined else { return nil }
            switch outcome {
            case .success:
                slots.combined = nil
                return (combined, outcome)
            case .failure(let error):
                slots.errors[index] = error
                slots.missing -= 1
                guard slots.missing == 0 else { return nil }
                slots.combined = nil
                return (combined, .failure(AYRaceRejectedError(internalErrors: slots.errors.map { $0! })))
            }
        }
        if let (combined, outcome) = settle { DispatchQueue.global().async { combined.settle(outcome) } }
    }
}
