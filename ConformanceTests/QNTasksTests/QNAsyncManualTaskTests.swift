import Dispatch
import QNTasks
import TestSupport
import Testing

/// A callback API to wrap: answers after some queue hops unless cancelled first.
final class FakeRequest: Sendable {
    private let cancelled = Recorder<Bool>()
    var wasCancelled: Bool { cancelled.count > 0 }
    func cancel() { cancelled.record(true) }

    static func send(hops: Int, answer: Int, completion: @escaping @Sendable (Int) -> Void) -> FakeRequest {
        let request = FakeRequest()
        after(hops: hops, on: .global()) {
            if !request.wasCancelled { completion(answer) }
        }
        return request
    }
}

@Suite("QN manual task")
struct QNAsyncManualTaskTests {
    @Test("wraps a callback API: start launches it, its callback completes the task")
    func wrapsCallbacks() async throws {
        let task = QNAsyncManualTask<Int>(taskID: "request") { task in
            let request = FakeRequest.send(hops: 5, answer: 42) { task.succeed($0) }
            task.onCancel { request.cancel() }
        }
        #expect(try await outcome(of: task).value == 42)
    }

    @Test("cancelling runs the cleanup, which stops the wrapped request")
    func cancelCleanup() async throws {
        let launched = Signal()
        let requests = Recorder<FakeRequest>()
        // The request answers only when the test says so (below, after the cancel): a request
        // answering by itself after some hops could win the race on a slow (sanitized) run.
        let task = QNAsyncManualTask<Int>(taskID: "request") { task in
            let request = FakeRequest()
            requests.record(request)
            task.onCancel { request.cancel() }
            launched.fire()
        }
        let reports = Recorder<String>()
        let finished = Signal()
        task.start(on: .global()) { outcome in
            reports.record(outcome.name)
            finished.fire()
        }
        try await launched.fired()
        task.cancel()
        try await finished.fired()
        // The late answer of a request that was not stopped would still reach the task.
        for request in requests.all where !request.wasCancelled { _ = task.succeed(42) }
        #expect(reports.all == ["cancelled"])
        #expect(requests.all.map(\.wasCancelled) == [true])
    }

    @Test("only the first completion counts")
    func firstCompletionWins() async throws {
        let task = QNAsyncManualTask<Int>()
        #expect(task.succeed(1))
        #expect(!task.succeed(2))
        #expect(!task.fail(TestError()))
        task.cancel()
        #expect(try await outcome(of: task).value == 1)
    }

    @Test("completed before start: the outcome is kept and the start block never runs")
    func completedBeforeStart() async throws {
        let runs = Recorder<Int>()
        let task = QNAsyncManualTask<Int> { _ in runs.record(1) }
        task.fail(TestError(8))
        let result = try await outcome(of: task)
        #expect(result.error as? TestError == TestError(8))
        #expect(runs.count == 0)
    }

    @Test("failing with CancellationError cancels the task")
    func failWithCancellation() async throws {
        let cleanups = Recorder<Int>()
        let task = QNAsyncManualTask<Int>()
        task.onCancel { cleanups.record(1) }
        #expect(task.fail(CancellationError()))
        #expect(task.state == .cancelled)
        #expect(cleanups.count == 1)
    }

    @Test("once started, the task lets go of its start block and of what the block captured")
    func releasesStartBlock() {
        let captured: Weak<Resource>
        let task: QNAsyncManualTask<Int>
        do {
            let resource = Resource()
            captured = Weak(resource)
            task = QNAsyncManualTask<Int>(taskID: "holder") { _ in withExtendedLifetime(resource) {} }
        }
        #expect(captured.object != nil, "a ready task keeps its start block")
        // `start` runs the block on this thread, so the task has let go when it returns, while
        // it still waits for someone to complete it.
        task.start(on: .global()) { _ in }
        #expect(captured.object == nil, "a started task still held its start block")
        #expect(task.state == .running)
        #expect(task.succeed(1))
    }

    @Test("complete(_:) hands the task to a Result-style completion handler: success succeeds, failure fails")
    func completeWithResult() async throws {
        @Sendable func fetch(_ id: Int, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
            after(hops: 2, on: .global()) { completion(id < 0 ? .failure(TestError(id)) : .success(id * 2)) }
        }
        let found = QNAsyncManualTask<Int>(taskID: "found") { fetch(21, completion: $0.complete) }
        let missing = QNAsyncManualTask<Int>(taskID: "missing") { fetch(-1, completion: $0.complete) }
        #expect(try await outcome(of: found).value == 42)
        #expect(try await outcome(of: missing).error as? TestError == TestError(-1))
    }

    @Test("complete(_:): only the first call counts, and a CancellationError cancels, as fail does")
    func completeFirstCallCounts() async throws {
        let task = QNAsyncManualTask<Int>()
        task.complete(.success(1))
        task.complete(.failure(TestError(2)))
        #expect(try await outcome(of: task).value == 1)
        let cancelled = QNAsyncManualTask<Int>()
        cancelled.complete(.failure(CancellationError()))
        #expect(try await outcome(of: cancelled).isCancelled)
    }
}

/// Something a block captures, to check when it is freed.
final class Resource: Sendable {}

extension QNAsyncManualTaskTests {
    @Test("a dropped 100,000-deep nest of manual tasks that never started is freed without overflowing the stack")
    func droppedUnstartedNest() {
        // Each start block holds the level inside it, as a wrapper that starts another task.
        expectDroppedNestFreed(innermost: { QNAsyncManualTask<Int>() }) { inner in
            QNAsyncManualTask<Int> { task in inner.start { task.complete($0.result) } }
        }
    }
}
