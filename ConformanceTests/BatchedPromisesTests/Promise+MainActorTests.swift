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

    @Test("recover with a promise, mapError and retry take main-actor callbacks, run on the main queue")
    func remainingOperators() async throws {
        let model = Model()
        let mappedError = Promise<Int, TestError>(failure: TestError(1)).mapError(on: MainActor.shared) { error in
            #expect(MainQueue.isCurrent)
            model.values.append("mapError \(error.code)")
            return TestError(error.code + 1)
        }
        let recovered = mappedError.recover(on: MainActor.shared) { error in
            model.values.append("recover \(error.code)")
            return Promise<Int, Never>(value: error.code)
        }
        #expect(try await value(of: recovered) == 2)
        let retried = Promise<Int, TestError>.retry(
            attempts: 3, on: MainActor.shared,
            while: { error in
                model.values.append("while \(error.code)")
                return true
            }
        ) {
            model.values.append("attempt")
            return model.values.filter { $0 == "attempt" }.count < 2
                ? Promise(failure: TestError(9)) : Promise(value: 7)
        }
        #expect(try await value(of: retried) == 7)
        #expect(model.values == ["mapError 1", "recover 2", "attempt", "while 9", "attempt"])
    }
}
