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

    /// A progress bar and a step count that are main-actor state, as a view model's are.
    var fraction = 0.0
    var stepsDone = 0
    var names: [String] = []

    func monitor(_ upload: QNAsyncManualTask<Int>, whenDone done: @escaping @Sendable () -> Void) {
        upload.monitorProgress(on: MainActor.shared) { fraction in
            self.fraction = fraction
            self.ranOnMainQueue.append(MainQueue.isCurrent)
            if fraction == 1 { done() }
        }
    }

    /// `map` and `start(success:failure:)` on the main actor.
    func loadNames(_ loader: QNAsyncTask<[String]>, done: @escaping @Sendable () -> Void) {
        loader.map(on: MainActor.shared) { items in items.map { $0.uppercased() } }
            .start(
                on: MainActor.shared,
                success: { names in
                    self.names = names
                    done()
                }, failure: { _ in done() })
    }

    /// A serial task whose build blocks, monitor and result run on the main actor.
    func checkout(done: @escaping @Sendable () -> Void) {
        let checkout = QNAsyncSerialTask<Int>(
            on: MainActor.shared,
            buildBlocks: [
                { _ in .required(QNAsyncBlockTask<Int> { _ in 1 }) },
                { previous in .required(QNAsyncBlockTask<Int> { _ in (previous?.result(as: Int.self) ?? 0) + 1 }) },
            ],
            progressMonitor: { _ in self.stepsDone += 1 },
            resultGenerate: { steps in steps.compactMap { $0.result(as: Int.self) }.reduce(0, +) }
        )
        checkout.then(on: MainActor.shared) { total in
            self.items = ["total \(total)"]
            return QNAsyncBlockTask<Int> { _ in total }
        }
        .start(on: MainActor.shared) { _ in done() }
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

    @Test("progress monitors update a main-actor class's state on the main queue")
    func monitors() async throws {
        let model = QNListModel()
        let upload = QNAsyncManualTask<Int>()
        try await waitUntil("the last report") { done in
            Task { @MainActor in
                model.monitor(upload, whenDone: done)
                upload.start()
                upload.reportProgress(0.5)
                upload.reportProgress(1)
            }
        }
        #expect(await model.fraction == 1)
        #expect(await model.ranOnMainQueue == [true, true])
    }

    @Test("map and start(success:failure:) run on the main actor")
    func mapped() async throws {
        let model = QNListModel()
        let loader = QNAsyncBlockTask<[String]> { _ in ["a", "b"] }
        try await waitUntil("the names") { done in Task { @MainActor in model.loadNames(loader, done: done) } }
        #expect(await model.names == ["A", "B"])
    }

    @Test("a serial task's build blocks, monitor and result, and then, run on the main actor")
    func serial() async throws {
        let model = QNListModel()
        try await waitUntil("the checkout") { done in Task { @MainActor in model.checkout(done: done) } }
        #expect(await model.stepsDone == 2)
        #expect(await model.items == ["total 3"])
    }
}
