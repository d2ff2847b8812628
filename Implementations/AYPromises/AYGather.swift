import Dispatch
import PromiseRuntime

/// The bookkeeping behind ``AYPromise/all`` and ``AYPromise/race``, which are mirror images: one
/// kind of outcome is collected in input order until every input has given it, the other kind
/// decides the result at once.
///
/// The original decrements an atomic counter and then reads every input's `value` again; this
/// keeps the outcomes as they arrive, under a lock, and lets go of the combined promise once it
/// has settled.
final class AYGather: Sendable {
    /// What a combinator collects and how it builds its result.
    struct Rule: Sendable {
        /// Whether `outcome` is collected; any other outcome decides the result at once.
        let collects: @Sendable (AYOutcome) -> Bool
        /// The result once every input gave a collected outcome (given in input order).
        let whenComplete: @Sendable ([AYOutcome]) -> AYOutcome
        /// The result when the input at an index gives a deciding outcome.
        let whenDecided: @Sendable (AYOutcome, Int) -> AYOutcome

        /// `all`: collects values; the first rejection decides, wrapped with its index.
        static let all = Rule(
            collects: { if case .success = $0 { true } else { false } },
            whenComplete: { outcomes in .success(outcomes.map { outcome -> PromiseValue in try? outcome.get() }) },
            whenDecided: { outcome, index in
                guard case .failure(let error) = outcome else { return outcome }
                return .failure(AYAllRejectedError(index: index, internalError: error))
            }
        )

        /// `race`: collects errors; the first fulfilment decides.
        static let race = Rule(
            collects: { if case .failure = $0 { true } else { false } },
            whenComplete: { outcomes in
                .failure(
                    AYRaceRejectedError(
                        internalErrors: outcomes.compactMap { if case .failure(let error) = $0 { error } else { nil } }
                    )
                )
            },
            whenDecided: { outcome, _ in outcome }
        )
    }

    private struct Slots {
        /// Emptied once the result is decided: later inputs are ignored, and what was collected
        /// must not live as long as the inputs still pending.
        var collected: [AYOutcome?]
        var missing: Int
        /// `nil` once settled, so inputs that are still pending do not keep it alive.
        var combined: AYPromise?
    }

    private let rule: Rule
    /// Guards the outcomes collected so far, the count still missing and the combined promise.
    private let slots: PromiseMutex<Slots>

    init(_ combined: AYPromise, count: Int, rule: Rule) {
        self.rule = rule
        slots = PromiseMutex(Slots(collected: Array(repeating: nil, count: count), missing: count, combined: combined))
    }

    /// Records one input's outcome; once the result is complete or decided, settles the combined
    /// promise from a global-queue block, outside the lock.
    ///
    /// Not on this stack: this runs in an input's handler, inside that input's settle, and the
    /// combined promise may itself be an input of another `all` or `race`. Settling it here would
    /// settle the next level inside this one, one set of stack frames per level: 100,000 nested
    /// combinators (`acc = AYPromise.all([acc, p])` in a loop) would overflow the stack.
    func record(_ outcome: AYOutcome, at index: Int) {
        let settle: (AYPromise, AYOutcome)? = slots.withLock { slots in
            guard let combined = slots.combined else { return nil }
            if rule.collects(outcome) {
                slots.collected[index] = outcome
                slots.missing -= 1
                guard slots.missing == 0 else { return nil }
                slots.combined = nil
                return (combined, rule.whenComplete(slots.collected.map { $0! }))
            }
            slots.combined = nil
            slots.collected = []
            return (combined, rule.whenDecided(outcome, index))
        }
        if let (combined, outcome) = settle { DispatchQueue.global().async { combined.settle(outcome) } }
    }
}
