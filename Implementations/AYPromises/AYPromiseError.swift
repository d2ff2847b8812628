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
    /// An operator was given an argument it cannot honour (a negative, NaN or infinite delay).
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
public struct AYAllRejectedError: Error, CustomStringConvertible {
    /// The position, in the input array, of the promise that rejected first.
    public let index: Int
    /// The error that promise rejected with (the original's `AYPromiseInternalErrorsKey`).
    public let internalError: any Error

    /// Wraps the first rejection of an `all`.
    public init(index: Int, internalError: any Error) {
        self.index = index
        self.internalError = internalError
    }

    public var description: String {
        "all: the promise at index \(index) was rejected: \(internalError)"
    }
}

/// The error ``AYPromise/race`` rejects with once every input has rejected: every input's error,
/// in input order (the original's `AYPromiseInternalErrorsKey` array).
public struct AYRaceRejectedError: Error, CustomStringConvertible {
    /// Each input's error, in input order (not in the order they rejected).
    public let internalErrors: [any Error]

    /// Collects the errors of a race that every input lost.
    public init(internalErrors: [any Error]) {
        self.internalErrors = internalErrors
    }

    public var description: String {
        "race: all \(internalErrors.count) promises were rejected: \(internalErrors)"
    }
}
