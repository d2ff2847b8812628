public import Synchronization

/// A `Synchronization.Mutex` whose ordering ThreadSanitizer can see.
///
/// On Linux, `Mutex` is a priority-inheritance futex: the kernel hands the lock to a sleeping
/// waiter without a user-space atomic operation, so ThreadSanitizer sees no happens-before edge
/// between the two critical sections and reports races that cannot happen. A release store at the
/// end of every critical section and an acquire load at the start of the next, on a byte of its
/// own, give it that edge; inside the lock they compile to plain loads and stores. Every design
/// guards its state with it, so `swift test --sanitize=thread` reports only real races.
///
/// `handoff` is the first stored property so that its offset does not depend on `Value`:
/// unspecialised code reaches it without a generic-metadata lookup, which under ThreadSanitizer
/// serialises every lock of every design.
public struct PromiseMutex<Value: ~Copyable>: ~Copyable, Sendable {
    /// Carries the happens-before edge from one critical section to the next; first on purpose.
    @usableFromInline let handoff = Atomic<Bool>(false)
    @usableFromInline let mutex: Mutex<Value>

    /// Makes a mutex guarding `value`.
    ///
    /// Inlinable so that a promise's initialiser, specialised in its caller, makes its lock without
    /// a generic-metadata lookup.
    @inlinable
    public init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    ///
    /// `body` must not block or call back into code that takes the same lock.
    @inlinable
    public borrowing func withLock<Result: ~Copyable>(
        _ body: (inout sending Value) -> sending Result
    ) -> sending Result {
        mutex.withLock { value in
            _ = handoff.load(ordering: .acquiring)
            defer { handoff.store(true, ordering: .releasing) }
            return body(&value)
        }
    }
}
