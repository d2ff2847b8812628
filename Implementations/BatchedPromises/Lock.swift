public import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The lock of every piece of this module's state: a promise's ``Control``, an awaiting task's
/// continuation, the attempt a retry waits on.
///
/// What it guards is always a few dozen instructions that run no user code and never block, so
/// which lock is best depends on the platform's scheduler:
/// - **Linux and other non-Darwin systems:** a spin lock on one atomic word, which spins briefly,
///   then yields its thread with `sched_yield` while it waits. Its acquire and release are atomic
///   operations that ThreadSanitizer sees, so every critical section is ordered after the one before
///   it (`Synchronization.Mutex` is a priority-inheritance futex there, whose hand-over to a
///   sleeping waiter happens in the kernel, where ThreadSanitizer sees no ordering and reports
///   races that cannot happen). It needs no thread identity either (`Mutex` reads the thread's id on
///   every lock, a tenth of a chain link's instructions).
/// - **Apple platforms:** `Synchronization.Mutex`, that is `os_unfair_lock`, which the kernel can
///   boost: a spinning thread of high quality of service can starve a holder of low quality of
///   service on Darwin's scheduler, a priority inversion that yielding does not cure (why Apple
///   deprecated `OSSpinLock`). ThreadSanitizer intercepts `os_unfair_lock` there.
///
/// Four bytes on every platform. Stored as a `let` in a class, so that its address is stable.
@usableFromInline
struct Lock: ~Copyable, Sendable {
    #if canImport(Darwin)
        @usableFromInline let mutex = Mutex<Void>(())
    #else
        /// 1 while held.
        @usableFromInline let word = Atomic<UInt32>(0)
    #endif

    @inlinable
    init() {}

    /// Runs `body` while holding the lock. `body` must not block or run user code.
    @inlinable
    @inline(__always)
    func withLock<Result>(_ body: () -> Result) -> Result {
        lock()
        defer { unlock() }
        return body()
    }

    @inlinable
    @inline(__always)
    func lock() {
        #if canImport(Darwin)
            mutex._unsafeLock()
        #else
            if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged { lockSlowly() }
        #endif
    }

    @inlinable
    @inline(__always)
    func unlock() {
        #if canImport(Darwin)
            mutex._unsafeUnlock()
        #else
            word.store(0, ordering: .releasing)
        #endif
    }

    #if !canImport(Darwin)
        /// Waits for the lock: spins while it is held, yielding the thread after a while.
        @usableFromInline
        func lockSlowly() {
            var spins = 0
            repeat {
                while word.load(ordering: .relaxed) != 0 {
                    spins += 1
                    if spins > 64 { sched_yield() }
                }
            } while !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
        }
    #endif
}
