/// What a serial task knows about one finished sub-task: its ID and how it ended.
///
/// Each build block of a ``QNAsyncSerialTask`` receives the previous sub-task's sub-state, the
/// progress monitor receives each one as it finishes, and the result generator receives them all.
public struct QNAsyncSerialTaskSubState: Sendable {
    /// The sub-task's position among the sub-tasks that ran (0 for the first).
    public let index: Int
    /// The sub-task's ``QNAsyncTask/taskID``.
    public let taskID: String
    /// How the sub-task ended, its result type erased.
    public let outcome: QNTaskOutcome<any Sendable>
    /// Whether the sub-task was optional (its failure did not fail the serial task).
    public let isOptional: Bool

    /// The sub-task's result as a `T`, or `nil` if it failed, was cancelled or produced another
    /// type.
    public func result<T>(as type: T.Type = T.self) -> T? {
        guard case .succeeded(let value) = outcome else { return nil }
        return value as? T
    }

    /// The sub-task's error (`CancellationError` if it was cancelled), or `nil` if it succeeded.
    public var error: (any Error)? {
        switch outcome {
        case .succeeded: return nil
        case .failed(let error): return error
        case .cancelled: return CancellationError()
        }
    }

    /// Whether the sub-task succeeded.
    public var succeeded: Bool {
        if case .succeeded = outcome { return true }
        return false
    }
}

/// The next sub-task a build block hands to a serial task, and whether it is optional.
///
/// ```swift
/// return .required(loadRemote)        // its failure fails the serial task
/// return .optional(loadLocalCache)    // its failure is recorded, and the serial task goes on
/// ```
public struct QNAsyncSerialStep: Sendable {
    let task: any QNAnyAsyncTask
    /// Whether the sub-task's failure (or cancellation) leaves the serial task running (the
    /// original's `refOptionalTask`).
    public let isOptional: Bool

    /// A sub-task whose failure or cancellation ends the serial task the same way.
    public static func required<Result>(_ task: QNAsyncTask<Result>) -> QNAsyncSerialStep {
        QNAsyncSerialStep(task: task, isOptional: false)
    }

    /// A sub-task whose failure or cancellation is recorded in its sub-state, after which the
    /// serial task goes on to the next build block.
    public static func optional<Result>(_ task: QNAsyncTask<Result>) -> QNAsyncSerialStep {
        QNAsyncSerialStep(task: task, isOptional: true)
    }
}
