import PromiseRuntime

/// What a task keeps until it uses it once, when two threads may race to take it (a parallel
/// task's launch, taken by `main()` or by a cancellation): taken out when used, so that a task
/// that ran no longer holds what the closure captured; freed through `releaseIteratively` when
/// the task goes without having used it. What only `main()` takes (a manual task's start block,
/// a block task's work) needs no lock and is a plain optional beside the same `deinit` loop.
///
/// A task that never ran may hold the next task of a nest this way (a start block or a launch
/// that captured it), and that task the next: freed from each one's `deinit`, a dropped
/// 100,000-deep nest that was never started would overflow the stack.
///
/// Keep a closure in a struct (`QNOneShot<StoredWork>`), not bare: a closure stored bare in the
/// generic mutex is kept in its most general form, behind a reabstraction thunk allocated when it
/// is stored and again when it is taken out; in a struct it is stored as written.
struct QNOneShot<Value: Sendable>: ~Copyable, Sendable {
    private let slot: PromiseMutex<Value?>

    init(_ value: consuming Value) {
        slot = PromiseMutex(value)
    }

    /// Takes the value out; `nil` once it was taken.
    func take() -> Value? {
        slot.withLock { $0.take() }
    }

    deinit {
        guard let unused = take() else { return }
        releaseIteratively(consume unused)
    }
}
