// Main-actor code and QN's completions on the main queue.
//
// A completion is `@Sendable` and runs on a queue (the main queue by default), so one written in
// a `@MainActor` class may not touch the class's state. These overloads take `@MainActor`
// callbacks: `on: MainActor.shared` runs them on the main queue, as `on: .main` does, and tells
// the compiler so (`MainActor.assumeIsolated`, checked at run time). Every callback a user passes
// to a task has one: the completions of `start` and `observe`, progress monitors, `then` and
// `map`, and a serial task's build blocks, progress monitor and `resultGenerate`. (`onCancel`
// handlers run synchronously on the cancelling thread, and a block task's work on its own queue.)
//
// ```swift
// @MainActor final class ListModel {
//     var items: [Item] = []
//     func load() {
//         loader.start(on: MainActor.shared) { outcome in
//             if case .succeeded(let items) = outcome { self.items = items }
//         }
//     }
// }
// ```

extension QNAsyncTask {
    /// ``start(on:completion:)-(DispatchQueue,_)`` with a completion isolated to the main actor.
    public final func start(
        on mainActor: MainActor,
        completion: @escaping @MainActor (QNTaskOutcome<Result>) -> Void
    ) {
        // One closure: it casts the erased outcome itself rather than wrapping a typed observer.
        start(
            observer: QNTaskObserver(queue: .main) { outcome in
                MainActor.assumeIsolated { completion(outcome.typed()) }
            })
    }

    /// ``observe(on:completion:)-(DispatchQueue,_)`` with a completion isolated to the main actor.
    public final func observe(
        on mainActor: MainActor,
        completion: @escaping @MainActor (QNTaskOutcome<Result>) -> Void
    ) {
        observe(
            observer: QNTaskObserver(queue: .main) { outcome in
                MainActor.assumeIsolated { completion(outcome.typed()) }
            })
    }

    /// ``start(on:success:failure:)-(DispatchQueue,_,_)`` with callbacks isolated to the main actor.
    public final func start(
        on mainActor: MainActor,
        success: @escaping @MainActor (Result) -> Void,
        failure: @escaping @MainActor (any Error) -> Void
    ) {
        start(on: .main, success: { value in MainActor.assumeIsolated { success(value) } }) { error in
            MainActor.assumeIsolated { failure(error) }
        }
    }

    /// ``monitorProgress(on:_:)-(DispatchQueue,_)`` with a monitor isolated to the main actor: it may
    /// update main-actor state with each report.
    ///
    /// ```swift
    /// upload.monitorProgress(on: MainActor.shared) { fraction in self.fraction = fraction }
    /// ```
    public final func monitorProgress(on mainActor: MainActor, _ monitor: @escaping @MainActor (Double) -> Void) {
        monitorProgress(on: .main) { fraction in MainActor.assumeIsolated { monitor(fraction) } }
    }

    /// ``map(on:_:)-(DispatchQueue,_)`` with a transform isolated to the main actor.
    public func map<Next: Sendable>(
        on mainActor: MainActor,
        _ transform: @escaping @MainActor (Result) throws -> Next
    ) -> QNAsyncContinuationTask<Result, Next> {
        map(on: .main) { value in try MainActor.assumeIsolated { try transform(value) } }
    }

    /// ``then(on:_:)-(DispatchQueue,_)`` with a block isolated to the main actor.
    public func then<Next: Sendable>(
        on mainActor: MainActor,
        _ next: @escaping @MainActor (Result) throws -> QNAsyncTask<Next>
    ) -> QNAsyncContinuationTask<Result, Next> {
        then(on: .main) { value in try MainActor.assumeIsolated { try next(value) } }
    }
}

extension QNAsyncSerialTask {
    /// A serial task whose build blocks, progress monitor and `resultGenerate` are isolated to the
    /// main actor: they run on the main queue, one at a time, and may use main-actor state.
    ///
    /// ```swift
    /// let checkout = QNAsyncSerialTask<Int>(
    ///     on: MainActor.shared,
    ///     buildBlocks: [{ _ in .required(self.order()) }, { order in .required(self.pay(order)) }],
    ///     progressMonitor: { step in self.stepsDone += 1 },
    ///     resultGenerate: { steps in steps.count }
    /// )
    /// ```
    public convenience init(
        taskID: String? = nil,
        on mainActor: MainActor,
        buildBlocks: [@MainActor (QNAsyncSerialTaskSubState?) throws -> QNAsyncSerialStep?],
        progressMonitor: (@MainActor (QNAsyncSerialTaskSubState) -> Void)? = nil,
        resultGenerate: @escaping @MainActor ([QNAsyncSerialTaskSubState]) throws -> Result
    ) {
        let blocks = buildBlocks.map { block -> BuildBlock in
            { previous in try MainActor.assumeIsolated { try block(previous) } }
        }
        let monitor = progressMonitor.map { monitor -> ProgressMonitor in
            { subState in MainActor.assumeIsolated { monitor(subState) } }
        }
        let generate: ResultGenerate = { subStates in try MainActor.assumeIsolated { try resultGenerate(subStates) } }
        self.init(taskID: taskID, queue: .main, buildBlocks: blocks, progressMonitor: monitor, resultGenerate: generate)
    }
}
