import PromiseRuntime

/// How a task ended: exactly one of these is reported, once, to every callback of a task.
///
/// Unlike a promise's two outcomes, a task has three: cancellation is not an error the work
/// produced but a decision taken from outside, and callers usually want to ignore it (not show an
/// error alert for a screen the user left).
public enum QNTaskOutcome<Result: Sendable>: Sendable {
    /// The work finished with a result.
    case succeeded(Result)
    /// The work failed with an error.
    case failed(any Error)
    /// The task was cancelled before it could succeed or fail.
    case cancelled

    /// The outcome as a `Swift.Result`; cancellation becomes `CancellationError`, as in Swift
    /// concurrency.
    public var result: Swift.Result<Result, any Error> {
        switch self {
        case .succeeded(let value): return .success(value)
        case .failed(let error): return .failure(error)
        case .cancelled: return .failure(CancellationError())
        }
    }

    /// Whether the task was cancelled.
    public var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }

    /// The result, or `nil` if the task failed or was cancelled.
    public var value: Result? {
        if case .succeeded(let value) = self { return value }
        return nil
    }

    /// The error, or `nil` if the task succeeded or was cancelled.
    public var error: (any Error)? {
        if case .failed(let error) = self { return error }
        return nil
    }
}

extension QNTaskOutcome where Result == any Sendable {
    /// The outcome as the shared protocol sees it: the value as a `PromiseValue` (an optional
    /// one not wrapped twice), or the reason; a cancelled task rejects with `CancellationError`.
    /// What a thenable QN task hands over, and what a promise that adopted a QN task settles
    /// with.
    var promiseResult: Swift.Result<PromiseValue, any Error> {
        switch self {
        case .succeeded(let value): return .success(PromiseValue(handingOver: value))
        case .failed(let error): return .failure(error)
        case .cancelled: return .failure(CancellationError())
        }
    }

    /// The outcome with its result cast back to the type it was erased from (``QNAnyOutcome``).
    func typed<T: Sendable>(as type: T.Type = T.self) -> QNTaskOutcome<T> {
        switch self {
        case .succeeded(let value): return .succeeded(qnUnerased(value))
        case .failed(let error): return .failed(error)
        case .cancelled: return .cancelled
        }
    }
}

/// `value`, erased to `any Sendable` by a task's core, as the type the task's typed layer erased
/// it from. Only the layer that erased a value casts it back, so the cast cannot fail; a failure
/// is a bug in QN, and it traps.
///
/// The existential is opened and its type compared, not cast with `as? T`: unspecialised, that
/// cast would look up `Optional<T>` and run the runtime's dynamic cast on every link.
func qnUnerased<T: Sendable>(_ value: any Sendable, as type: T.Type = T.self) -> T {
    func unerased<Erased: Sendable>(_ erased: Erased) -> T {
        if Erased.self == T.self { return unsafeBitCast(erased, to: T.self) }
        return qnCast(erased)
    }
    return unerased(value)
}

/// A value erased from an existential or optional `T`, or from a subclass of a class `T`, cast
/// back. Out of line: inlined in `qnUnerased`, the cast would look up `Optional<T>` on every call.
@inline(never)
private func qnCast<T: Sendable, Erased: Sendable>(_ erased: Erased) -> T {
    guard let typed = erased as? T else {
        preconditionFailure("QN erased a \(Erased.self) where a \(T.self) was expected")
    }
    return typed
}

/// Where a task is in its life. Each state after `ready` is reached at most once, in this order:
/// `ready` -> `running` -> one of `succeeded`, `failed`, `cancelled` (a task cancelled or settled
/// from outside before it started skips `running`).
public enum QNTaskState: Sendable, Equatable {
    /// Made, not started: no work has run.
    case ready
    /// Started; the work is in flight.
    case running
    /// Finished with a result.
    case succeeded
    /// Finished with an error.
    case failed
    /// Cancelled; the work was never started or its result is ignored.
    case cancelled

    /// Whether the task has finished (succeeded, failed or cancelled).
    public var isFinished: Bool {
        switch self {
        case .ready, .running: return false
        case .succeeded, .failed, .cancelled: return true
        }
    }
}

/// Errors the QN tasks fail with.
public enum QNTaskError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A promise (a started task seen through the shared protocol) was resolved with itself
    /// (Promises/A+ 2.3.1), or a serial task's build block returned the serial task itself.
    case cycle
    /// An operation was given input it cannot honour (such as a first-success parallel task with
    /// no sub-tasks).
    case invalidArgument(String)

    /// A sentence for logs and test failures.
    public var description: String {
        switch self {
        case .cycle: return "A task was resolved with itself (Promises/A+ 2.3.1)."
        case .invalidArgument(let reason): return "Invalid argument: \(reason)"
        }
    }
}

/// A first-success parallel task fails with this when every sub-task failed or was cancelled.
public struct QNAllFailedError: Error, Sendable, CustomStringConvertible {
    /// Holds ``errors``: first-success tasks nest, and so do their errors; `NestedErrors` frees
    /// a deep nest without recursing.
    private let nested: NestedErrors

    /// Each sub-task's error, in the order the sub-tasks were given (`CancellationError` for a
    /// sub-task that was cancelled).
    public var errors: [any Error] { nested.errors }

    init(errors: [any Error]) {
        nested = NestedErrors(errors, mayNest: errors.contains { $0 is QNAllFailedError })
    }

    /// A sentence for logs and test failures. A sub-task's own `QNAllFailedError` is summed up,
    /// not described: describing each level inside the previous one would recurse as deep as the
    /// nest.
    public var description: String {
        let parts = errors.map { error in
            (error as? QNAllFailedError).map { "QNAllFailedError(\($0.errors.count) sub-tasks failed)" }
                ?? String(describing: error)
        }
        return "All \(errors.count) sub-tasks failed: [\(parts.joined(separator: ", "))]"
    }
}
