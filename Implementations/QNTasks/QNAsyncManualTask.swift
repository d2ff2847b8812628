import PromiseRuntime

/// A task completed from outside: the way to wrap a callback API (a network request, a system
/// dialog) as a task.
///
/// When started, the task calls its `start` block with itself; the block launches the operation
/// and later calls ``succeed(_:)`` or ``fail(_:)`` from the operation's callback. Register cleanup
/// with ``QNAsyncTask/onCancel(_:)`` to stop the operation when the task is cancelled.
///
/// ```swift
/// let request = QNAsyncManualTask<Data>(taskID: "load-remote") { task in
///     let call = client.get(url) { result in
///         switch result {
///         case .success(let data): task.succeed(data)
///         case .failure(let error): task.fail(error)
///         }
///     }
///     task.onCancel { call.cancel() }
/// }
/// ```
///
/// Only the first of `succeed`, `fail` and ``QNAsyncTask/cancel()`` counts; later calls are
/// ignored. Completing the task before it was started keeps the outcome, and the `start` block
/// then never runs. The closure that will complete the task keeps it alive; a task nobody can
/// complete any more is freed and its callbacks are dropped.
public final class QNAsyncManualTask<Result: Sendable>: QNAsyncTask<Result>, @unchecked Sendable {
    // @unchecked Sendable: adds only `starter`, which needs no lock of its own: it is written at
    // creation, read and cleared only by `main()`, which the state machine's lock lets run at
    // most once (the `start` transition that returns `.run`), and read by `deinit` (see
    // QNAsyncTask).

    /// Launches the operation; receives the task to complete.
    public typealias Starter = @Sendable (QNAsyncManualTask<Result>) -> Void

    /// The start block until the task starts; taken out then, so a started task (finished, or
    /// waiting for an outside call) no longer keeps what the block captured, which may hold
    /// whoever will complete the task, and so the task itself. A task completed or cancelled
    /// before it was started never runs the block and keeps it until it is freed.
    ///
    /// No lock: see the class's `@unchecked Sendable` note. A lock here would make every task
    /// larger.
    private var starter: StoredStarter?

    /// The closure in a struct, so that the optional stores it as written (see `QNOneShot`).
    private struct StoredStarter: Sendable {
        let run: Starter
    }

    /// Makes a ready task.
    ///
    /// - Parameters:
    ///   - taskID: The task's ID; a unique one is generated if `nil`.
    ///   - start: Called once, when the task is first started, on the thread that starts it.
    ///     It must not block; it launches the operation and returns.
    public init(taskID: String? = nil, start: @escaping Starter) {
        starter = StoredStarter(run: start)
        super.init(identifier: taskID)
    }

    /// Makes a ready task whose operation is launched by whoever holds it (no start block).
    public convenience init(taskID: String? = nil) {
        self.init(taskID: taskID, start: { _ in })
    }

    deinit {
        // A start block that never ran may hold the next level of a nest: freed in a loop (see
        // `QNOneShot`).
        // Not `starter.take()`, which looks up generic metadata when unspecialised (see the
        // continuation's `takeStep`).
        guard let unused = starter else { return }
        starter = nil
        releaseIteratively(consume unused)
    }

    override func main() {
        let starter = self.starter
        self.starter = nil
        starter?.run(self)
    }

    /// Finishes the task with `value`, unless it already finished.
    ///
    /// - Returns: Whether this call finished the task.
    @discardableResult
    public func succeed(_ value: Result) -> Bool {
        finish(succeeding: value)
    }

    /// Fails the task with `error`, unless it already finished. A `CancellationError` cancels it
    /// instead (and runs its cancellation handlers).
    ///
    /// - Returns: Whether this call finished the task.
    @discardableResult
    public func fail(_ error: any Error) -> Bool {
        failOrCancel(error)
    }

    /// Finishes the task with a completion handler's `Result`: the way to hand the task to a
    /// callback API in one line.
    ///
    /// ```swift
    /// func fetchUser(_ id: Int, completion: @escaping @Sendable (Result<User, any Error>) -> Void)
    /// let user = QNAsyncManualTask<User>(taskID: "user") { fetchUser(42, completion: $0.complete) }
    /// ```
    ///
    /// `.success` is ``succeed(_:)``, `.failure` is ``fail(_:)``; only the first call counts.
    public func complete(_ result: Swift.Result<Result, any Error>) {
        switch result {
        case .success(let value): succeed(value)
        case .failure(let error): fail(error)
        }
    }
}
