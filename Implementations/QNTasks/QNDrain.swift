#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs the side effects of starts and cancellations in a loop instead of recursively.
///
/// Starting a continuation starts its source, which may be a continuation that starts its own
/// source, and so on down an unstarted chain; a cancellation handler often cancels another task:
/// a continuation cancels the task it waits for, a serial task its running sub-task, and so on up
/// a chain. Run inline, starting or cancelling the end of a 100,000-link chain would nest 100,000
/// calls and overflow the stack.
///
/// So each thread has at most one active *drain*: the outermost call on a thread performs its
/// work and then every piece of work enqueued meanwhile, in order, in a loop; a call made while a
/// drain is active on the same thread (from inside a handler or a start) only enqueues its work
/// and returns. The state transition itself (a task becoming `running` or `cancelled`) is not
/// deferred: it happens under the task's lock before the drain is called, so a nested `cancel()`
/// still returns with the task cancelled; only its side effects run a moment later, on the same
/// thread, before the outermost call returns.
///
/// The drain is confined to its thread (found through a pthread key), so it needs no lock. Each
/// thread keeps its work list for its lifetime, so a drain costs no allocation when nothing
/// nests.
enum QNDrain {
    /// One piece of deferred work.
    private enum Work {
        case closure(() -> Void)
        /// A continuation starting its source: stored as the task itself, so that deferring the
        /// start of each link of a chain allocates nothing.
        case start(any QNSourceStarting)
    }

    /// The per-thread list of pending work. Only ever touched by the thread it belongs to, which
    /// is what makes each access exclusive: the runtime's own check, which every chain link would
    /// pay, is left out.
    private final class WorkList {
        @exclusivity(unchecked) var isActive = false
        /// Work enqueued while a batch runs.
        @exclusivity(unchecked) var pending: [Work] = []
        /// The batch running; swapped with `pending`, so the two buffers are reused.
        @exclusivity(unchecked) var running: [Work] = []
    }

    /// The key under which each thread's work list is stored; the list is released when the
    /// thread ends.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            // Optional on glibc, not on Darwin: written to compile on both.
            let list: UnsafeMutableRawPointer? = raw
            guard let list else { return }
            Unmanaged<AnyObject>.fromOpaque(list).release()
        }
        precondition(status == 0, "QNTasks: pthread_key_create failed (\(status))")
        return key
    }()

    /// This thread's work list.
    private static var list: WorkList {
        if let existing = pthread_getspecific(key) {
            return Unmanaged<WorkList>.fromOpaque(existing).takeUnretainedValue()
        }
        let made = WorkList()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }

    /// Performs `work` now if no drain is active on this thread (and then everything it
    /// enqueued), or enqueues it on the active drain.
    static func run(_ work: @escaping () -> Void) {
        perform(.closure(work))
    }

    /// Starts `continuation`'s source now if no drain is active on this thread, or enqueues the
    /// start on the active drain.
    static func start(_ continuation: any QNSourceStarting) {
        perform(.start(continuation))
    }

    private static func perform(_ work: consuming Work) {
        let list = self.list
        guard !list.isActive else {
            list.pending.append(work)
            return
        }
        list.isActive = true
        run(work)
        // Each batch is moved out of `pending` before it runs, and each item is moved out of
        // `running` (popped, the batch reversed first to keep its order) before it runs, so no
        // item is copied: freeing an item may run a `deinit` that enqueues more work, into
        // `pending`.
        while !list.pending.isEmpty {
            swap(&list.running, &list.pending)
            list.running.reverse()
            while let item = list.running.popLast() { run(item) }
        }
        // A short buffer is kept for the next drain; a long one (a chain's starts) is freed, so
        // an idle thread holds almost nothing: a worker thread that exits later frees its list
        // inside whatever is being measured then.
        if list.pending.capacity > 16 { list.pending = [] }
        if list.running.capacity > 16 { list.running = [] }
        list.isActive = false
    }

    private static func run(_ work: Work) {
        switch work {
        case .closure(let closure): closure()
        case .start(let continuation): continuation.startSource()
        }
    }
}

/// A continuation whose start the drain can defer: it starts its source when told.
protocol QNSourceStarting: AnyObject {
    func startSource()
}
