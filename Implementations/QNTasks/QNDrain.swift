#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs the side effects of cancellations (cancellation handlers, outcome delivery) in a loop
/// instead of recursively.
///
/// A cancellation handler often cancels another task: a serial task's handler cancels its running
/// sub-task, which for a `then` chain is the previous promise, whose handler cancels the one
/// before, and so on. Run inline, cancelling the tail of a 100,000-link chain would nest 100,000
/// calls and overflow the stack.
///
/// So each thread has at most one *drain*: the outermost ``run(_:)`` on a thread performs its work
/// and then every piece of work enqueued meanwhile, in order, in a loop; a ``run(_:)`` called while
/// a drain is active on the same thread (from inside a cancellation handler) only enqueues its
/// work and returns. The state transition itself (the task becoming `cancelled`) is not deferred:
/// it happens under the task's lock before `run` is called, so a nested `cancel()` still returns
/// with the task cancelled; only its handlers and callbacks run a moment later, on the same
/// thread, before the outermost `cancel()` returns.
///
/// The drain is confined to its thread (found through a pthread key), so it needs no lock.
enum QNCancellationDrain {
    /// The per-thread list of pending work. Only ever touched by the thread it belongs to.
    private final class WorkList {
        var pending: [() -> Void] = []
    }

    /// The key under which each thread's active drain (if any) is stored.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "QNTasks: pthread_key_create failed (\(status))")
        return key
    }()

    /// Performs `work` now if no drain is active on this thread (and then everything it
    /// enqueued), or enqueues it on the active drain.
    static func run(_ work: @escaping () -> Void) {
        if let active = pthread_getspecific(key) {
            Unmanaged<WorkList>.fromOpaque(active).takeUnretainedValue().pending.append(work)
            return
        }
        let list = WorkList()
        let unmanaged = Unmanaged.passRetained(list)
        pthread_setspecific(key, unmanaged.toOpaque())
        defer {
            pthread_setspecific(key, nil)
            unmanaged.release()
        }
        work()
        var index = 0
        while index < list.pending.count {
            let next = list.pending[index]
            index += 1
            next()
            // Drop what has run in large batches, so a long drain does not keep every finished
            // closure (and what it captures) alive until the end.
            if index >= 1024 {
                list.pending.removeFirst(index)
                index = 0
            }
        }
    }
}
