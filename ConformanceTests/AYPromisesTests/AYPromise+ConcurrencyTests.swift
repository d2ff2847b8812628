import AYPromises
import Dispatch
import TestSupport
import Testing

@Suite("AY await value")
struct AYConcurrencyTests {
    @Test("await promise.value returns the value, or throws the error")
    func awaitValue() async throws {
        let deferred = pending()
        DispatchQueue.global().async { deferred.resolve(1) }
        #expect(try await deferred.promise.value as? Int == 1)
        await #expect(throws: TestError.self) { try await AYPromise.resolve(TestError(2)).value }
    }

    @Test("value(as:) returns a typed value, accepts nil for an optional type, and names a mismatch")
    func typedValue() async throws {
        #expect(try await AYPromise.resolve("text").value(as: String.self) == "text")
        #expect(try await AYPromise.resolve(nil).value(as: Int?.self) == nil)
        await #expect(throws: AYPromiseError.typeMismatch(expected: "Int", actual: "String")) {
            try await AYPromise.resolve("text").value(as: Int.self)
        }
        await #expect(throws: AYPromiseError.typeMismatch(expected: "Int", actual: "nil")) {
            try await AYPromise.resolve(nil).value(as: Int.self)
        }
    }

    @Test("awaiting needs no queue: it resumes on the settling thread")
    func noQueueNeeded() async throws {
        let deferred = pending()
        let queue = TaggedQueue("ay.settler")
        queue.queue.async { deferred.resolve(3) }
        #expect(try await deferred.promise.value(as: Int.self) == 3)
    }
}
