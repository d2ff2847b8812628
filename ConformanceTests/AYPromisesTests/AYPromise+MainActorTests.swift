import AYPromises
import TestSupport
import Testing

/// A main-actor class that updates its state from AY blocks: with `then` (a `@Sendable` block)
/// this class does not compile in Swift 6 mode; with `thenOnMainActor` it does.
@MainActor final class AYAvatarModel {
    var avatars: [String] = []
    var failures: [String] = []
    var settledCount = 0
    var ranOnMainQueue: [Bool] = []

    func load(_ request: AYPromise) -> AYPromise {
        request
            .thenOnMainActor { value in
                self.ranOnMainQueue.append(MainQueue.isCurrent)
                self.avatars = value as? [String] ?? []
                return value
            }
            .catchOnMainActor { error in
                self.failures.append("\(error)")
                throw error
            }
            .alwaysOnMainActor { outcome in
                self.settledCount += 1
                return outcome
            }
    }
}

@Suite("AY: main-actor blocks (thenOnMainActor, catchOnMainActor, alwaysOnMainActor)")
@MainActor
struct AYMainActorTests {
    @Test("the blocks update a main-actor class's state on the main queue; what they return decides, as in then")
    func fulfilled() async throws {
        let model = AYAvatarModel()
        let loaded = model.load(AYPromise.with(["a", "b"] as PromiseValue))
        let value = try await awaitOutcome { try await loaded.value(as: [String].self) }.get()
        #expect(value == ["a", "b"])
        #expect(model.avatars == ["a", "b"])
        #expect(model.ranOnMainQueue == [true])
        #expect(model.failures.isEmpty)
        #expect(model.settledCount == 1)
    }

    @Test("a rejection reaches catchOnMainActor, whose throw keeps it rejected")
    func rejected() async throws {
        let model = AYAvatarModel()
        let loaded = model.load(AYPromise.with(TestError(7) as PromiseValue))
        let outcome = try await awaitOutcome { try await loaded.value }
        #expect(throws: TestError(7)) { try outcome.get() }
        #expect(model.avatars.isEmpty)
        #expect(model.failures == ["\(TestError(7))"])
        #expect(model.settledCount == 1)
    }

    @Test("a block with no argument and no return value fulfils with nil, as in then")
    func voidBlock() async throws {
        let model = AYAvatarModel()
        let done = AYPromise.with(1 as PromiseValue).thenOnMainActor { model.settledCount += 1 }
        let value = try await awaitOutcome { try await done.value }.get()
        #expect(value == nil)
        #expect(model.settledCount == 1)
    }

    @Test("a block with no argument that returns nil or values of several types compiles, as with always")
    func dynamicBlockWithoutArgument() async throws {
        let model = AYAvatarModel()
        let done = AYPromise.with(1 as PromiseValue).alwaysOnMainActor {
            model.settledCount += 1
            return nil
        }
        let value = try await awaitOutcome { try await done.value }.get()
        #expect(value == nil)
        #expect(model.settledCount == 1)
    }
}
