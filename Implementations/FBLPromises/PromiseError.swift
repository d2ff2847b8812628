public import Foundation

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

extension PromiseError {
    /// Recognises a promise error in any error, as google/promises' `PromiseError(_:)` does: a
    /// `PromiseError` itself, or an `NSError` of ``errorDomain`` with google's codes for
    /// ``timedOut`` (1) and ``validationFailure`` (2), the form in which errors reach Swift from
    /// Objective-C code.
    ///
    /// ```swift
    /// promise.catch { error in
    ///     if PromiseError(error) == .timedOut { showRetryButton() }
    /// }
    /// ```
    ///
    /// - Parameter error: Any error.
    /// - Returns: `nil` for any other error. The cases this port adds carry values an `NSError`
    ///   code cannot restore, so only google's two codes are recognised in an `NSError`.
    public init?(_ error: any Error) {
        if let promiseError = error as? PromiseError {
            self = promiseError
            return
        }
        // Only a real `NSError` is read: bridging any other error to one allocates, and no Swift
        // error type but `PromiseError` stands for google's codes.
        guard type(of: error) is NSError.Type else { return nil }
        let nsError = error as NSError
        guard nsError.domain == Self.errorDomain else { return nil }
        switch nsError.code {
        case 1: self = .timedOut
        case 2: self = .validationFailure
        default: return nil
        }
    }
}

extension PromiseError: CustomNSError {
    /// google/promises' `FBLPromiseErrorDomain`, so that Objective-C code and logs see the
    /// original's domain.
    public static var errorDomain: String { "com.google.FBLPromises.Error" }

    /// google/promises' codes for ``timedOut`` (1) and ``validationFailure`` (2); this port's
    /// own cases follow them (3 to 6).
    public var errorCode: Int {
        switch self {
        case .timedOut: return 1
        case .validationFailure: return 2
        case .cycle: return 3
        case .typeMismatch: return 4
        case .invalidArgument: return 5
        case .wouldDeadlock: return 6
        }
    }

    /// ``description`` as the localized description.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
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
