import QNTasks
import TestSupport
import Testing

/// A main-actor class that updates its state from a task's completion: with `on: .main` (a
/// `@Sendable` completion) this class does not compile in Swift 6 mode; with
/// `on: MainActor.shared` it does.
@MainActor final class QNListModel {
    var items: [String] = []
    var outcomes: [String] = []
    var ranOnMainQueue: [Bool] = []

    func load(_ loader: QNAsyncTask<[String]>, done: @escaping @Sendable () -> Void) {
        loader.start(on: MainActor.shared) { outcome in
            self.ranOnMainQueue.append(MainQueue.isCurrent)
            if case .succeeded(let items) = outcome { self.items = items }
            self.outcomes.append("start")
            done()
        }
    }

    func watch(_ loader: QNAsyncTask<[String]>, done: @escaping @Sendable () -> Void) {
        loader.observe(on: MainActor.shared) { outcome in
            if outcome.isCancelled { self.outcomes.append("cancelled") }
            done()
        }
    }
}

@Suite("QN: main-actor completions (on: MainActor.shared)")
struct QNMainActorTests {
    @Test("start's completion updates a main-actor class's state on the main queue")
    func started() async throws {
        let model = QNListModel()
        let loader = QNAsyncBlockTask<[String]> { _ in ["a", "b"] }
        try await awaitCompletion("the completion") {
            (complete: @escaping @Sendable (Result<Void, any Error>) -> Void) in
            Task { @MainActor in model.load(loader) { complete(.success(())) } }
        }
        #expect(await model.items == ["a", "b"])
        #expect(await model.ranOnMainQueue == [true])
        #expect(await model.outcomes == ["start"])
    }

    @Test("observe's completion sees a cancellation on the main actor")
    func observed() async throws {
        let model = QNListModel()
        let loader = QNAsyncManualTask<[String]>()
        try await awaitCompletion("the observer") { (complete: @escaping @Sendable (Result<Void, any Error>) -> Void) in
            Task { @MainActor in
                model.watch(loader) { complete(.success(())) }
                loader.cancel()
            }
        }
        #expect(await model.outcomes == ["cancelled"])
    }
}
