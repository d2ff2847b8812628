import BatchedPromises
import Dispatch
import TestSupport
import Testing

@Suite("Batched: mapError")
struct MapErrorTests {
    struct Wrapped: Error, Equatable {
        let inner: TestError
    }

    @Test("mapError changes the failure and its type; a value passes")
    func mapsFailure() async throws {
        let mapped = Promise<Int, TestError>(failure: TestError(7)).mapError(on: .global()) { Wrapped(inner: $0) }
        #expect(try await outcome(of: mapped).failure == Wrapped(inner: TestError(7)))
        let passed = Promise<Int, TestError>(value: 1).mapError(on: .global()) { Wrapped(inner: $0) }
        #expect(try await value(of: passed) == 1)
    }
}
