import BatchedPromises
import Dispatch
import TestSupport
import Testing

@Suite("Batched: Promise")
struct PromiseTests {
    @Test("a fulfilled promise maps on a queue")
    func mapsValue() async throws {
        let promise = Promise<Int, Never>(value: 1).map(on: .global()) { $0 + 1 }
        #expect(try await promise.value == 2)
    }
}
