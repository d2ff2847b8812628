/// A promise resolved with itself, or with a promise that settles as it does already: it could
/// never settle. What the resolution procedure rejects it with (Promises/A+ 2.3.1), from a
/// resolver, a `flatMap` or `recover` callback and the untyped `then` alike.
///
/// The module sees a cycle when the promise it closes reaches the adopting one through promises
/// that forward to it (each adopted while pending): the usual case, a promise resolved with
/// itself, or with a promise that was resolved with it. A cycle through a promise adopted twice
/// (the second adoption waits on it rather than forwarding) is not seen: that promise stays
/// pending, as it would in any design that waits instead of walking.
public struct SelfResolutionError: Error, Equatable, CustomStringConvertible {
    public init() {}

    public var description: String {
        "a promise was resolved with itself, or with a promise that settles as it does: it could never settle "
            + "(Promises/A+ 2.3.1)"
    }
}

/// An operator was called with an argument it cannot work with, such as `retry(attempts: 0)`.
public struct InvalidArgument: Error, Equatable, CustomStringConvertible {
    /// What was wrong, and with which call.
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// `error` as the failure of a promise whose failure type is `Failure`, when that type can hold it
/// (`any Error` can); otherwise the program stops with `error`'s description, in every build:
/// `fatalError` keeps its message in an optimised build, where `precondition` drops it.
///
/// The operators whose misuse it reports say which it does in their documentation.
@inlinable
func misuse<Failure: Error>(_ error: some Error & CustomStringConvertible, as _: Failure.Type) -> Failure {
    if let failure = error as? Failure { return failure }
    fatalError(
        "BatchedPromises: \(error). A promise whose Failure is \(Failure.self) cannot be rejected with "
            + "\(type(of: error)), so this stops the program; with `any Error` it is rejected instead.")
}
