import BatchedPromises
import Dispatch
import TestSupport
import Testing

@Suite("Batched: recover")
struct RecoverTests {
    @Test("recover turns the failure into a value, with a failure type of its own")
    func recovers() async throws {
        let recovered: Promise<Int, Never> = Promise<Int, TestError>(failure: TestError(2))
            .recover(on: .global()) { error in error.code * 10 }
        #expect(try await value(of: recovered) == 20)
        let passed: Promise<Int, Never> = Promise<Int, TestError>(value: 3).recover(on: .global()) { _ in 0 }
        #expect(try await value(of: passed) == 3)
    }

    @Test("recover may throw a failure of another type")
    func throwsAnotherType() async throws {
        struct Other: Error, Equatable {}
        let promise = Promise<Int, TestError>(failure: TestError(1))
            .recover(on: .global()) { _ throws(Other) -> Int in throw Other() }
        #expect(try await outcome(of: promise).failure == Other())
    }

    @Test("recover with a promise adopts it")
    func recoversWithPromise() async throws {
        let promise = Promise<Int, TestError>(failure: TestError(1))
            .recover(on: .global()) { _ in Promise<Int, Never>(value: 4) }
        #expect(try await value(of: promise) == 4)
    }

    @Test("a cancellation passes recover by")
    func cancellationPasses() async throws {
        let (root, _) = Promise<Int, TestError>.makePending()
        let ran = Recorder<Bool>()
        let recovered = root.recover(on: .global()) { _ in
            ran.record(true)
            return 0
        }
        root.cancel()
        #expect(try await outcome(of: recovered).isCancelled)
        #expect(ran.all.isEmpty)
    }
}
