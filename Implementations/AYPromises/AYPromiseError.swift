public import Foundation
import PromiseInterface

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
    /// Holds ``internalError``; see ``AYNestedErrors`` for why it is a class.
    private let nested: AYNestedErrors

    /// The error that promise rejected with (the original's `AYPromiseInternalErrorsKey`).
    public var internalError: any Error { nested.errors[0] }

    /// Wraps the first rejection of an `all`.
    public init(index: Int, internalError: any Error) {
        self.index = index
        nested = AYNestedErrors([internalError])
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
    /// Holds ``internalErrors``; see ``AYNestedErrors`` for why it is a class.
    private let nested: AYNestedErrors

    /// Each input's error, in input order (not in the order they rejected).
    public var internalErrors: [any Error] { nested.errors }

    /// Collects the errors of a race that every input lost.
    public init(internalErrors: [any Error]) {
        nested = AYNestedErrors(internalErrors)
    }

    /// A sentence for logs and test failures: how many inputs rejected, and their errors in
    /// input order.
    public var description: String {
        "race: all \(internalErrors.count) promises were rejected: \(internalErrors)"
    }

    /// The original's words, under its `NSLocalizedDescriptionKey`: "all promise were rejected".
    public var errorDescription: String? { "all promise were rejected" }
}

/// The errors a combinator error wraps, in a class so that freeing them cannot recurse deeply.
///
/// Combinators nest (`acc = AYPromise.all([acc, p])` in a loop), and so do their errors: the
/// outermost error of 100,000 nested `all`s wraps 100,000 levels. Freeing that from one stack
/// would free each level from the previous one's release, one set of frames per level, and
/// overflow. When the errors held here are combinator errors themselves, they are let go through
/// `releaseIteratively` instead: one level after another, as a pending promise lets go of its
/// handlers.
final class AYNestedErrors: Sendable {
    /// Guards the errors; a mutex only so that `deinit` can take them out and hand over the only
    /// reference (`releaseIteratively`): a copy would leave this object's own reference to be
    /// released last, nested.
    private let storage: PromiseMutex<[any Error]>

    init(_ errors: [any Error]) {
        storage = PromiseMutex(errors)
    }

    var errors: [any Error] { storage.withLock { $0 } }

    deinit {
        let errors = storage.withLock { errors in
            defer { errors = [] }
            return errors
        }
        guard errors.contains(where: { $0 is AYAllRejectedError || $0 is AYRaceRejectedError }) else { return }
        releaseIteratively(consume errors)
    }
}
