import Dispatch
import PromiseRuntime

extension QNAsyncTask: Thenable {
    /// Lets any design's resolution procedure adopt this task: starts it (if it has not started)
    /// and hands its outcome over on the main queue. A cancelled task rejects with
    /// `CancellationError`.
    public func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) {
        // One closure, on the erased outcome: no typed observer to wrap.
        start(
            observer: QNTaskObserver(queue: .main) { outcome in
                switch outcome.promiseResult {
                case .success(let value): resolvePromise(value)
                case .failure(let error): rejectPromise(error)
                }
            })
    }
}

/// The resolution procedure (Promises/A+ 2.3) for a task standing in for a promise (a
/// `deferred`'s manual task, a `then`'s continuation).
///
/// - A QN task is adopted: started (if it has not started) and followed. Resolving a promise
///   with itself (`owner`), or with a task that waits for it through the tasks it waits for
///   (``AdoptionCycle``), fails with ``QNTaskError/cycle``.
/// - Any other `Thenable` is assimilated through `thenOnce`, called on a main-queue hop (a fresh
///   stack, never inside the caller's critical sections); what it resolves with is resolved again,
///   and a `PropertyThenable` whose `then` holds no function succeeds the task with itself.
/// - Anything else succeeds the task.
package func qnResolve(_ task: QNAsyncTask<PromiseValue>, with value: PromiseValue, owner: ObjectIdentifier) {
    if let adopted = value as? any QNAnyAsyncTask {
        // The promise itself, or a task that waits for it through the tasks it waits for.
        let closesCycle = AdoptionCycle.wouldClose(adopting: adopted as AnyObject, by: owner) { task in
            (task as? any QNAnyAsyncTask)?.awaitedTask.map { $0 as AnyObject }
        }
        guard !closesCycle else {
            task.finish(failing: QNTaskError.cycle)
            return
        }
        task.recordAwaited(adopted)
        adopted.start(
            observer: QNTaskObserver(queue: .main) { outcome in
                switch outcome.promiseResult {
                case .success(let value): task.finish(succeeding: value)
                case .failure(let error): task.finish(failing: error)
                }
            })
    } else if let thenable = value as? any Thenable {
        DispatchQueue.main.async {
            let call = thenable.thenOnce(
                resolvePromise: { value in qnResolve(task, with: value, owner: owner) },
                rejectPromise: { error in task.finish(failing: error) }
            )
            // A `then` property that holds no function makes the thenable a plain value.
            if call == .thenIsNotAFunction { task.finish(succeeding: thenable) }
        }
    } else {
        task.finish(succeeding: value)
    }
}
