public import Foundation
import PromiseRuntime

/// Errors the AY promises reject with for bad input.
///
/// The original has none of these: it leaves a promise resolved with itself pending forever,
/// never settles an empty `race`, and asserts (in debug builds only) on invalid arguments.
public enum AYPromiseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A promise was resolved with itself (Promises/A+ 2.3.1, the spec's `TypeError`).
    case cycle
    /// ``AYPromise/race`` was given no promises: with no runner, nothing could ever win.
    case emptyRace
    /// ``AYPromise/value(as:)`` found a value of another type.
    case typeMismatch(expected: String, actual: String)
    /// An operator was given an argument it cannot honour: a negative, NaN or infinite delay, or
    /// a function of a type that `with(value)` and `asyncWith(value)` cannot run.
    case invalidArgument(String)

    /// A sentence for logs and test failures.
    public var description: String {
        switch self {
        case .cycle:
            return "A promise was resolved with itself (Promises/A+ 2.3.1)."
        case .emptyRace:
            return "race was given no promises, so none can ever fulfil."
        case .typeMismatch(let expected, let actual):
            return "Expected a value of type \(expected), found \(actual)."
        case .invalidArgument(let reason):
            return "Invalid argument: \(reason)"
        }
    }
}

/// The error ``AYPromise/all`` rejects with: a wrapper around the first input's error, as the
/// original wraps it in an `NSError` whose `AYPromiseInternalErrorsKey` holds the input's error.
public struct AYAllRejectedError: LocalizedError, CustomStringConvertible {
    /// The position, in the input array, of the promise that rejected first.
    public let index: Int
    /// Holds ``internalError``: nested `all`s nest their errors, and `NestedErrors` frees a deep
    /// nest without recursing.
    private let nested: NestedErrors

    /// The error that promise rejected with (the original's `AYPromiseInternalErrorsKey`).
    public var internalError: any Error { nested.errors[0] }

    /// Wraps the first rejection of an `all`.
    public init(index: Int, internalError: any Error) {
        self.index = index
        nested = NestedErrors([internalError], mayNest: isCombinatorError(internalError))
    }

    /// A sentence for logs and test failures: the index and the inner error, or for nested
    /// `all`s every level's index down to the innermost error.
    public var description: String {
        // Walks a chain of nested `all` errors in a loop: nested alls can wrap each other
        // 100,000 deep, and interpolating `internalError` would recurse once per level.
        var text = ""
        var error: any Error = self
        while let wrapper = error as? AYAllRejectedError {
            text += "all: the promise at index \(wrapper.index) was rejected: "
            error = wrapper.internalError
        }
        return text + String(describing: error)
    }

    /// The innermost error's `localizedDescription`, as the original puts the input error's
    /// description under `NSLocalizedDescriptionKey`: a catch that shows
    /// `error.localizedDescription` shows why the input failed.
    public var errorDescription: String? {
        // A loop, not `internalError.localizedDescription`, for the reason given in `description`.
        var error: any Error = internalError
        while let wrapper = error as? AYAllRejectedError { error = wrapper.internalError }
        return error.localizedDescription
    }
}

/// The error ``AYPromise/race`` rejects with once every input has rejected: every input's error,
/// in input order (the original's `AYPromiseInternalErrorsKey` array).
public struct AYRaceRejectedError: LocalizedError, CustomStringConvertible {
    /// Holds ``internalErrors``: nested races nest their errors, and `NestedErrors` frees a deep
    /// nest without recursing.
    private let nested: NestedErrors

    /// Each input's error, in input order (not in the order they rejected).
    public var internalErrors: [any Error] { nested.errors }

    /// Collects the errors of a race that every input lost.
    public init(internalErrors: [any Error]) {
        nested = NestedErrors(internalErrors, mayNest: internalErrors.contains(where: isCombinatorError))
    }

    /// A sentence for logs and test failures: how many inputs rejected, and their errors in
    /// input order.
    public var description: String {
        "race: all \(internalErrors.count) promises were rejected: \(internalErrors)"
    }

    /// The original's words, under its `NSLocalizedDescriptionKey`: "all promise were rejected".
    public var errorDescription: String? { "all promise were rejected" }
}

/// Whether `error` is one of AY's combinator errors, which hold errors of their own.
private func isCombinatorError(_ error: any Error) -> Bool {
    error is AYAllRejectedError || error is AYRaceRejectedError
}
