// Main-actor code and QN's completions on the main queue.
//
// A completion is `@Sendable` and runs on a queue (the main queue by default), so one written in
// a `@MainActor` class may not touch the class's state. These overloads take a `@MainActor`
// completion: `on: MainActor.shared` delivers on the main queue, as `on: .main` does, and tells
// the compiler so (`MainActor.assumeIsolated`, checked at run time).
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
}
