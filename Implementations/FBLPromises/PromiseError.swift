/// Errors the FBL promises reject with.
///
/// `timedOut` and `validationFailure` are google/promises' own; the others are this port's
/// answers to inputs the original either hangs on or does not check.
public enum PromiseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// ``FBLPromise/timeout(on:_:)`` fired before the promise settled.
    case timedOut
    /// ``FBLPromise/validate(on:_:)``'s predicate returned `false`.
    case validationFailure
    /// A promise was resolved with itself (Promises/A+ 2.3.1, the spec's `TypeError`). The
    /// original leaves such a promise pending forever.
    case cycle
    /// A thenable resolved a typed promise with a value of another type.
    case typeMismatch(expected: String, actual: String)
    /// An operator was given an argument it cannot honour (a negative retry count, an interval
    /// that is negative, NaN or infinite, an empty `race`).
    case invalidArgument(String)
    /// ``awaitPromise(_:)`` was called on a queue the promise's callbacks need, where blocking
    /// would deadlock.
    case wouldDeadlock(String)

    /// A sentence for logs and test failures.
    public var description: String {
        switch self {
        case .timedOut:
            return "The promise timed out."
        case .validationFailure:
            return "The promise's value failed validation."
        case .cycle:
            return "A promise was resolved with itself (Promises/A+ 2.3.1)."
        case .typeMismatch(let expected, let actual):
            return "A thenable resolved a promise of \(expected) with a value of type \(actual)."
        case .invalidArgument(let reason):
            return "Invalid argument: \(reason)"
        case .wouldDeadlock(let reason):
            return "Refusing to block: \(reason)"
        }
    }
}

/// Checks an interval argument of `timeout`, `delay` or `retry`.
///
/// - Returns: `nil` if `interval` is usable (finite and not negative), otherwise the error to
///   reject with.
func invalidInterval(_ interval: Double, in operatorName: String) -> PromiseError? {
    guard interval.isFinite, interval >= 0 else {
        return .invalidArgument("\(operatorName) needs a finite, non-negative interval; got \(interval)")
    }
    return nil
}
