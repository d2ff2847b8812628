import QXPromises
import TestSupport
import Testing

/// A main-actor class that updates its state from QX blocks: with `on: .main` (a `@Sendable`
/// block) this class does not compile in Swift 6 mode; with `on: MainActor.shared` it does.
@MainActor final class QXAvatarModel {
    var avatars: [String] = []
    var failures: [String] = []
    var settledCount = 0
    var ranOnMainQueue: [Bool] = []

    func load(_ request: QXPromise) -> QXPromise {
        request
            .then(on: MainActor.shared) { value in
                self.ranOnMainQueue.append(MainQueue.isCurrent)
                self.avatars = value as? [String] ?? []
                return value
            }
            .catch(on: MainActor.shared) { error in
                self.failures.append("\(error)")
                throw error
            }
            .finally(on: MainActor.shared) { self.settledCount += 1 }
    }

    /// A progress bar that is main-actor state, as a view model's is.
    var fraction = 0.0
    var reportsOnMainQueue: [Bool] = []

    func track(_ download: QXPromise, whenDone done: @escaping @Sendable () -> Void) {
        download.progress(on: MainActor.shared) { proportion, _ in
            self.fraction = proportion
            self.reportsOnMainQueue.append(MainQueue.isCurrent)
            if proportion == 1 { done() }
        }
    }
}

@Suite("QX: main-actor blocks (on: MainActor.shared)")
@MainActor
struct QXMainActorTests {
    @Test("then, catch and finally update a main-actor class's state on the main queue")
    func fulfilled() async throws {
        let model = QXAvatarModel()
        let loaded = model.load(QXPromise(fulfilledWith: ["a", "b"]))
        let value = try await awaitOutcome { try await loaded.value }.get()
        #expect(value as? [String] == ["a", "b"])
        #expect(model.avatars == ["a", "b"])
        #expect(model.ranOnMainQueue == [true])
        #expect(model.failures.isEmpty)
        #expect(model.settledCount == 1)
    }

    @Test("a rejection reaches catch on the main actor, whose throw keeps it rejected")
    func rejected() async throws {
        let model = QXAvatarModel()
        let loaded = model.load(QXPromise(rejectedWith: TestError(7)))
        let outcome = try await awaitOutcome { try await loaded.value }
        #expect(throws: TestError(7)) { try outcome.get() }
        #expect(model.avatars.isEmpty)
        #expect(model.failures == ["\(TestError(7))"])
        #expect(model.settledCount == 1)
    }

    @Test("progress reports update a main-actor class's state on the main queue")
    nonisolated func progress() async throws {
        let model = QXAvatarModel()
        let (download, resolver) = QXPromise.pending(on: .global())
        try await waitUntil("the last report") { done in
            Task { @MainActor in
                model.track(download, whenDone: done)
                resolver.progress(0.5)
                resolver.progress(1)
            }
        }
        #expect(await model.fraction == 1)
        #expect(await model.reportsOnMainQueue == [true, true])
    }
}
