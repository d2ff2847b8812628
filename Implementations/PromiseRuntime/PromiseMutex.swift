public import Synchronization

/// A `Synchronization.Mutex` whose ordering ThreadSanitizer can see.
///
/// On Linux, `Mutex` is a priority-inheritance futex: when a waiter has to sleep, the kernel hands
/// the lock over without any user-space atomic operation, so ThreadSanitizer sees no
/// happens-before edge between the two critical sections and reports races on the guarded value
/// that cannot happen. This wrapper adds a release store at the end of every critical section and
/// an acquire load at the start of the next one, on a byte of its own: ThreadSanitizer sees those,
/// and on x86-64 and arm64 they compile to plain loads and stores inside the lock, so they cost
/// nothing measurable. Every design guards its state with it, so `swift test --sanitize=thread`
/// reports only real races.
///
/// ## Why `handoff` is the first stored property
/// Its offset is then 0 whatever `Value` is, so unspecialised code (every debug build, and generic
/// code that the optimiser cannot specialise) reaches it without looking up the metadata of
/// `PromiseMutex<Value>`. Placed after `mutex`, its offset depended on `Value`'s layout and each
/// `withLock` made two such lookups. That matters under ThreadSanitizer: the Swift runtime then
/// takes the slow path of `swift_once` on every generic-metadata lookup, a process-wide
/// priority-inheritance futex per generic type, and with every promise of every design locking
/// through this one type, two dozen threads queued on it. Putting `handoff` first cut the
/// suite's run under ThreadSanitizer from 135-152 s to 97 s on 2 cores (Reports/reliability.md).
public struct PromiseMutex<Value: ~Copyable>: ~Copyable, Sendable {
    /// Carries the happens-before edge from one critical section to the next (see above). The
    /// first stored property on purpose (see above).
    @usableFromInline let handoff = Atomic<Bool>(false)
    @usableFromInline let mutex: Mutex<Value>

    /// Makes a mutex guarding `value`.
    ///
    /// Inlinable so that a promise's initialiser, specialised in its caller, makes its lock without
    /// a generic-metadata lookup (one per promise made, in a profile of a chain before).
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
