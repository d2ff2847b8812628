#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Frees `value` without nesting: when a `deinit` that runs meanwhile calls this function again,
/// on the same thread, the value it hands over is freed after the current one, in a loop, not
/// inside it.
///
/// A pending promise that is freed still holds the next links of its chain (its observers), and
/// they hold the links after them. Freed from its `deinit`, each link would free the next from its
/// own `deinit`, one set of stack frames per link, and dropping a pending 100,000-link chain would
/// overflow the stack. Handed to this function instead, the links are freed one after another by
/// the outermost call on the thread, whatever the chain's length.
///
/// The value must be *moved* in, with `consume` (or passed as a temporary), so that the caller
/// keeps no reference:
///
/// ```swift
/// guard let observers = machine.withLock({ $0.abandon() }) else { return }
/// releaseIteratively(consume observers)
/// ```
///
/// A caller that kept a binding would free the value only when that binding goes, at the end of
/// its own scope, nested again. Handing the value to a block on another queue is no substitute:
/// when the block runs before the caller's scope ends, as it can on a loaded machine, the caller's
/// release is the last one, and the chain is freed nested on the caller's stack after all.
///
/// Each thread has at most one loop, found through a pthread key and touched only by that thread,
/// so no lock is needed.
///
/// - Parameter value: What to free; the caller gives up its reference.
public func releaseIteratively<Value: Sendable>(_ value: consuming Value) {
    if let active = pthread_getspecific(IterativeRelease.key) {
        // Inside the loop of an outer call on this thread: freed after the current value.
        Unmanaged<IterativeRelease.Pending>.fromOpaque(active).takeUnretainedValue().values.append(value)
        return
    }
    let pending = IterativeRelease.Pending()
    let unmanaged = Unmanaged.passRetained(pending)
    pthread_setspecific(IterativeRelease.key, unmanaged.toOpaque())
    defer {
        pthread_setspecific(IterativeRelease.key, nil)
        unmanaged.release()
    }
    _ = consume value  // frees it now; releases it causes are appended to `pending`
    // Each value is taken out of the list before it is freed, so the appends its deinitializers
    // make never happen while the list is being changed.
    while let next = pending.values.popLast() {
        _ = consume next
    }
}

/// The per-thread state of ``releaseIteratively(_:)``.
enum IterativeRelease {
    /// Values waiting to be freed by the loop of the outermost call on a thread. Only ever touched
    /// by that thread.
    final class Pending {
        var values: [any Sendable] = []
    }

    /// The key under which each thread's active loop (if any) is stored.
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "PromiseRuntime: pthread_key_create failed (\(status))")
        return key
    }()
}
