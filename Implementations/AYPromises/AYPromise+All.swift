import Dispatch
public import PromiseInterface

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
            let gather = AYAllGather(combined, count: inputs.count)
            for (index, input) in inputs.enumerated() {
                resolve(input).pipe { outcome in gather.record(outcome, at: index) }
            }
            return combined
        }
    }
}

/// The countdown behind ``AYPromise/all``.
///
/// The original decrements an atomic counter and then reads every input's `value` again; this
/// keeps the values as they arrive, under a lock, and lets go of the combined promise once it
/// has settled.
final class AYAllGather: Sendable {
    private struct Slots {
        /// Emptied on the first rejection: once the result is decided, later inputs are ignored.
        var values: [PromiseValue]
        var missing: Int
        /// `nil` once settled, so inputs that are still pending do not keep it alive.
        var combined: AYPromise?
    }

    /// Guards the values received so far, the count still missing and the combined promise.
    private let slots: PromiseMutex<Slots>

    init(_ combined: AYPromise, count: Int) {
        slots = PromiseMutex(Slots(values: Array(repeating: nil, count: count), missing: count, combined: combined))
    }

    /// Records one input's outcome; on the last value or the first error, settles the combined promise
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
            case .success(let value):
                slots.values[index] = value
                slots.missing -= 1
                guard slots.missing == 0 else { return nil }
                slots.combined = nil
                return (combined, .success(slots.values))
            case .failure(let error):
                slots.combined = nil
                // Inputs still pending keep this gather alive; the values gathered so far are
                // no longer needed, so they must not live as long as those inputs.
                slots.values = []
                return (combined, .failure(AYAllRejectedError(index: index, internalError: error)))
            }
        }
        if let (combined, outcome) = settle { DispatchQueue.global().async { combined.settle(outcome) } }
    }
}
