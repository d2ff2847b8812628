import Dispatch
import TestSupport
import Testing

// Scenario 1: one asynchronous operation. Each design wraps the same callback API (a
// `FakeEndpoint`) the way its users would, once, in an extension of `FakeEndpoint` in its folder
// (`fbl(_:)`, `ay(_:)`, ...); the other scenarios reuse these wrappers.
// Each design's version of this scenario is in its folder beside this file (`FBL/`, `AY/`, …): a
// design adds its own folder and edits nothing here.

// MARK: - Swift concurrency, the baseline: its wrap of the callback API

extension FakeEndpoint {
    /// Swift concurrency, the reference: an `async` function over the callback API; the call
    /// starts when the function is called, and cancelling the calling task cancels the request.
    func async(_ input: Input) async throws -> Output {
        // The flag of scenario 7: a cancel before the call started cancels it as it starts.
        let flag = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let started = call(input) { result in continuation.resume(with: result) }
                flag.onCancel { started.cancel() }
            }
        } onCancel: {
            flag.cancel()
        }
    }
}

@Suite("Scenario 1: one async operation")
struct OneAsyncOperationTests {
    let book = AddressBook()
    let failing = FakeEndpoint<String, User>("user", log: Recorder()) { _ in .failure(TestError(1)) }

    // MARK: Swift concurrency

    @Test("Swift concurrency: the request starts when the function is called; the caller resumes with the value")
    func swiftConcurrency() async throws {
        #expect(try await book.user.async("u1") == User(id: "u1"))
        #expect(book.log.all == ["→ user(u1)", "← user(u1)"])
    }

    @Test("Swift concurrency: a failed request throws; do/catch sees the error")
    func swiftConcurrencyFails() async throws {
        do {
            _ = try await failing.async("u1")
            Issue.record("did not throw")
        } catch {
            #expect(error as? TestError == TestError(1))
        }
    }

    @Test("Swift concurrency: cancelling the Task before the answer cancels the request; it throws CancellationError")
    func swiftConcurrencyCancelled() async throws {
        let log = Recorder<String>()
        let slow = FakeEndpoint<String, User>("user", log: log, latency: { _ in .never }) { .success(User(id: $0)) }
        let task = Task { try await slow.async("u1") }
        try await slow.waitForCalls()
        task.cancel()
        let result = try await awaitOutcome("the cancelled task") { try await task.value }
        #expect(rejection(of: result) is CancellationError)
        #expect(log.all == ["→ user(u1)", "✕ user(u1)"])
    }
}
