import FBLPromises
import TestSupport
import Testing

/// A main-actor class that updates its state from FBL callbacks: with `on: .main` (a `@Sendable`
/// block) this class does not compile in Swift 6 mode ("main actor-isolated property can not be
/// mutated from a Sendable closure"); with `on: MainActor.shared` it does, without annotations.
@MainActor final class FBLAvatarModel {
    var avatars: [String] = []
    var failures: [String] = []
    var settledCount = 0
    var ranOnMainQueue: [Bool] = []

    func load(_ request: FBLPromise<[String]>) -> FBLPromise<[String]> {
        request
            .then(on: MainActor.shared) { avatars in
                self.ranOnMainQueue.append(MainQueue.isCurrent)
                self.avatars = avatars
            }
            .catch(on: MainActor.shared) { error in self.failures.append("\(error)") }
            .always(on: MainActor.shared) { self.settledCount += 1 }
    }

    func count(_ request: FBLPromise<[String]>) -> FBLPromise<Int> {
        request.then(on: MainActor.shared) { avatars in avatars.count + self.avatars.count }
    }

    /// `recover` (both forms) and `validate` with main-actor state.
    func fallback(_ request: FBLPromise<[String]>, cached: FBLPromise<[String]>) -> FBLPromise<[String]> {
        request
            .recover(on: MainActor.shared) { error in
                self.failures.append("\(error)")
                return cached
            }
            .validate(on: MainActor.shared) { avatars in avatars.count >= self.settledCount }
            .recover(on: MainActor.shared) { _ in self.avatars }
    }

    func reload(_ request: FBLPromise<[String]>, next: FBLPromise<[String]>) -> FBLPromise<[String]> {
        request.then(on: MainActor.shared) { avatars in
            self.avatars = avatars
            return next
        }
    }
}

@Suite("FBL: main-actor blocks (on: MainActor.shared)")
@MainActor
struct FBLMainActorTests {
    @Test("then, catch and always update a main-actor class's state, on the main queue, and pass the value on")
    func fulfilled() async throws {
        let model = FBLAvatarModel()
        let loaded = model.load(FBLPromise(["a", "b"]))
        let value = try await awaitOutcome { try await loaded.value }.get()
        #expect(value == ["a", "b"])
        #expect(model.avatars == ["a", "b"])
        #expect(model.ranOnMainQueue == [true])
        #expect(model.failures.isEmpty)
        #expect(model.settledCount == 1)
    }

    @Test("a rejection skips then and reaches catch and always on the main actor; the promise stays rejected")
    func rejected() async throws {
        let model = FBLAvatarModel()
        let loaded = model.load(FBLPromise(TestError(7)))
        let outcome = try await awaitOutcome { try await loaded.value }
        #expect(throws: TestError(7)) { try outcome.get() }
        #expect(model.avatars.isEmpty)
        #expect(model.failures == ["\(TestError(7))"])
        #expect(model.settledCount == 1)
    }

    @Test("a value-returning block maps the value; a promise-returning one is adopted")
    func mapsAndAdopts() async throws {
        let model = FBLAvatarModel()
        let count = model.count(FBLPromise(["a", "b", "c"]))
        #expect(try await awaitOutcome { try await count.value }.get() == 3)
        let next = FBLPromise<[String]>.pending()
        let reloaded = model.reload(FBLPromise(["a"]), next: next)
        next.fulfill(["z"])
        #expect(try await awaitOutcome { try await reloaded.value }.get() == ["z"])
        #expect(model.avatars == ["a"])
    }

    @Test("recover, with a promise or a value, and validate read and write a main-actor class's state")
    func recovered() async throws {
        let model = FBLAvatarModel()
        let fromCache = model.fallback(FBLPromise(TestError(3)), cached: FBLPromise(["cached"]))
        #expect(try await awaitOutcome { try await fromCache.value }.get() == ["cached"])
        #expect(model.failures == ["\(TestError(3))"])

        // A value that fails validation is replaced by the value-returning recover.
        model.avatars = ["kept"]
        model.settledCount = 5
        let invalid = model.fallback(FBLPromise(["one"]), cached: FBLPromise(["cached"]))
        #expect(try await awaitOutcome { try await invalid.value }.get() == ["kept"])
    }
}
