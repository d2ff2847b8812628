import Synchronization

/// What the snippets' last callbacks recorded, for the tests to wait for: each stub a snippet
/// ends with records the snippet's name when it runs.
public nonisolated final class Ran: Sendable {
    public static let shared = Ran()

    private struct State {
        var names: [String] = []
        var waiters: [(name: String, resume: @Sendable () -> Void)] = []
    }

    /// Guards the names recorded so far and the waiters still waiting.
    private let state = Mutex(State())

    /// Records that `name`'s callback ran, and wakes whoever waits for it.
    public func record(_ name: String) {
        let woken = state.withLock { state in
            state.names.append(name)
            let woken = state.waiters.filter { $0.name == name }
            state.waiters.removeAll { $0.name == name }
            return woken
        }
        for waiter in woken { waiter.resume() }
    }

    /// How many times `name` was recorded.
    public func count(_ name: String) -> Int { state.withLock { $0.names.filter { $0 == name }.count } }

    /// Calls `resume` once `name` has been recorded (at once if it already was).
    public func whenRecorded(_ name: String, _ resume: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.names.contains(name) { return true }
            state.waiters.append((name, resume))
            return false
        }
        if now { resume() }
    }
}

/// Resumes a continuation once, whichever caller comes first.
public nonisolated final class Once<Value: Sendable>: Sendable {
    /// Guards the continuation until the first resume takes it.
    private let continuation: Mutex<CheckedContinuation<Value, Never>?>

    public init(_ continuation: CheckedContinuation<Value, Never>) { self.continuation = Mutex(continuation) }

    public func resume(_ value: Value) {
        continuation.withLock { stored in
            defer { stored = nil }
            return stored
        }?.resume(returning: value)
    }
}
