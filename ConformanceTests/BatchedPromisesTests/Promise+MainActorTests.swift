import BatchedPromises
import Dispatch
import TestSupport
import Testing

@MainActor
final class Model {
    var values: [String] = []
}

@Suite("Batched: main-actor callbacks", .serialized)
@MainActor
struct MainActorTests {
    @Test("every operator takes a main-actor callback, run on the main queue")
    func everyOperator() async throws {
        let model = Model()
        let mapped = Promise<Int, TestError>(value: 1).map(on: MainActor.shared) { value in
            #expect(MainQueue.isCurrent)
            model.values.append("map \(value)")
            return value + 1
        }
        let flat = mapped.flatMap(on: MainActor.shared) { value in
            model.values.append("flatMap \(value)")
            return Promise<Int, TestError>(failure: TestError(value))
        }
        let caught = flat.catch(on: MainActor.shared) { error in model.values.append("catch \(error.code)") }
        let recovered = caught.recover(on: MainActor.shared) { error in
            model.values.append("recover \(error.code)")
            return 0
        }
        let always = recovered.always(on: MainActor.shared) { model.values.append("always") }
        let (observed, observedResolver) = Promise<Void, Never>.makePending()
        always.whenComplete(on: MainActor.shared) { outcome in
            model.values.append("whenComplete \(outcome)")
            observedResolver.fulfill(())
        }
        _ = try await outcome(of: observed)
        #expect(
            model.values == [
                "map 1", "flatMap 2", "catch 2", "recover 2", "always", "whenComplete fulfilled(0)",
            ])
    }
}
