import PromiseRuntime

extension Promise {
    /// Waits for the promise: its value, or a throw of its failure, or of `CancellationError` if
    /// it is cancelled.
    ///
    /// ```swift
    /// let user = try await loadUser(id: "42").value
    /// ```
    ///
    /// Cancelling the waiting task withdraws it from the promise, which is cancelled in turn if no
    /// one else waits for it; the wait then throws `CancellationError`.
    public var value: Value {
        get async throws {
            switch await outcome {
            case .fulfilled(let value): return value
            case .rejected(let failure): throw failure
            case .cancelled: throw CancellationError()
            }
        }
    }

    /// Waits for the promise to settle, and returns how it did.
    ///
    /// Cancelling the waiting task withdraws it from the promise, as ``value`` does; it then
    /// returns ``Outcome/cancelled`` at once.
    public var outcome: Outcome {
        get async {
            if let outcome = currentOutcome { return outcome }
            let box = self.box
            let waiter = Awaiter(input: box)
            return await withTaskCancellationHandler {
                await withUnsafeContinuation { continuation in
                    if waiter.wait(with: continuation) { box.register(waiter) }
                }
            } onCancel: {
                if waiter.withdraw() { CancellationWalk.withdraw(waiter, from: box) }
            }
        }
    }

    /// Makes a promise of what `operation` returns, run in a new `Task`; a throw rejects it.
    /// Cancelling the promise cancels the task.
    ///
    /// ```swift
    /// let user = Promise<User, any Error> { try await api.user(id: "42") }
    /// ```
    ///
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - operation: The work.
    public init(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable () async throws(Failure) -> Value
    ) {
        let (promise, resolver) = Self.makePending()
        self = promise
        let task = Task(priority: priority) {
            do throws(Failure) {
                resolver.fulfill(try await operation())
            } catch {
                resolver.reject(error)
            }
        }
        resolver.onCancel { task.cancel() }
    }
}

/// An `async` caller waiting for a promise: resumed once, by the promise when it settles or by
/// the caller's cancellation, whichever comes first.
@usableFromInline
final class Awaiter<Value: Sendable, Failure: Error>: Node, @unchecked Sendable {
    // `@unchecked Sendable`: `input` is written only while the node is in no list (made, or moved
    // to the root its input forwards to) and read by `run` only; `lock` guards `state`.
    @exclusivity(unchecked) @usableFromInline unowned(unsafe) var input: PromiseBox<Value, Failure>

    enum State {
        case starting
        case waiting(UnsafeContinuation<Promise<Value, Failure>.Outcome, Never>)
        case done
    }

    /// Guards ``state``: ``Lock``, whose ordering ThreadSanitizer sees (the cancellation handler
    /// and the settle race here).
    let lock = Lock()
    @exclusivity(unchecked) var state = State.starting

    @usableFromInline
    init(input: PromiseBox<Value, Failure>) {
        self.input = input
        super.init(queue: nil) { node, operation, _ in
            guard operation == .run else { return }
            unsafeDowncast(node, to: Awaiter.self).resume()
        }
    }

    /// Stores the continuation; `false` when the caller was cancelled first, in which case it is
    /// resumed at once and nothing is to be registered.
    func wait(with continuation: UnsafeContinuation<Promise<Value, Failure>.Outcome, Never>) -> Bool {
        let cancelled = lock.withLock {
            guard case .starting = state else { return true }
            state = .waiting(continuation)
            return false
        }
        if cancelled { continuation.resume(returning: .cancelled) }
        return !cancelled
    }

    /// The caller was cancelled: resumes it with `.cancelled` unless the promise resumed it first.
    /// Returns whether the caller is to withdraw it from the promise: whenever the promise had not
    /// resumed it, registered or not yet (a promise no one else waits for is then cancelled, as it
    /// would be had the caller registered an instant earlier).
    func withdraw() -> Bool {
        let action = lock.withLock { () -> UnsafeContinuation<Promise<Value, Failure>.Outcome, Never>?? in
            switch state {
            case .starting:
                state = .done
                return .some(nil)
            case .waiting(let continuation):
                state = .done
                return continuation
            case .done:
                return nil
            }
        }
        guard case .some(let continuation) = action else { return false }
        continuation?.resume(returning: .cancelled)
        return true
    }

    @usableFromInline
    override func retarget(from old: Node, to new: Node) {
        if input === old { input = unsafeDowncast(new, to: PromiseBox<Value, Failure>.self) }
    }

    /// The promise has settled: resumes the caller with its outcome, unless cancelled first.
    func resume() {
        let outcome = input.settledOutcome
        input.releaseFromNode()
        let continuation = lock.withLock { () -> UnsafeContinuation<Promise<Value, Failure>.Outcome, Never>? in
            guard case .waiting(let continuation) = state else { return nil }
            state = .done
            return continuation
        }
        continuation?.resume(returning: outcome)
    }
}
