import Dispatch
import QNTasks
import TestSupport
import Testing

/// Typed, lazy composition with `then` and `map`: continuations, one task per link.
@Suite("QN then and map")
struct QNAsyncTaskThenTests {
    /// A step the test controls: a manual task that records its start and waits to be told.
    final class Step: Sendable {
        let task: QNAsyncManualTask<Int>
        let started = Signal()

        init(_ name: String) {
            let started = started
            task = QNAsyncManualTask<Int>(taskID: name) { _ in started.fire() }
        }

        var hasStarted: Bool { task.state != .ready }
    }

    @Test("nothing runs until the last task is started; starting it runs the chain in order")
    func lazyUntilStarted() async throws {
        let ran = Recorder<String>()
        let first = QNAsyncBlockTask<Int>(taskID: "first") { _ in
            ran.record("first")
            return 20
        }
        let chain = first.map(on: .global()) { value in
            ran.record("map")
            return value + 1
        }
        .then(on: .global()) { value in
            QNAsyncBlockTask<Int>(taskID: "second") { _ in
                ran.record("second")
                return value * 2
            }
        }
        #expect(first.state == .ready)
        #expect(chain.state == .ready)
        #expect(ran.all.isEmpty)
        #expect(try await outcome(of: chain).value == 42)
        #expect(ran.all == ["first", "map", "second"])
    }

    @Test("a then whose block returns the task then returned fails it with the cycle error, not a cancel")
    func thenReturningItselfIsACycle() async throws {
        let itself = Weak<QNAsyncTask<Int>>(nil)
        let chain = QNAsyncBlockTask<Int> { _ in 1 }.then(on: .global()) { _ in itself.object! }
        itself.set(chain)
        let ended = try await outcome(of: chain)
        #expect(ended.error as? QNTaskError == .cycle, "ended \(ended)")
    }

    @Test("a continuation that adopts itself fails with the cycle error, not a cancel")
    func adoptingItselfIsACycle() async throws {
        let continuation = QNAsyncContinuationTask<Int, Int>(
            source: QNAsyncBlockTask<Int> { _ in 1 }, queue: .global()
        ) { _, continuation in continuation.adopt(continuation) }
        let ended = try await outcome(of: continuation)
        #expect(ended.error as? QNTaskError == .cycle, "ended \(ended)")
    }

    @Test("a failure passes through map and then without calling them; a throw fails the chain")
    func failurePassesThrough() async throws {
        let called = Recorder<String>()
        let failing = QNAsyncBlockTask<Int> { _ in throw TestError(1) }
        let chain = failing.map(on: .global()) { value in
            called.record("map")
            return value
        }
        .then(on: .global()) { value in
            called.record("then")
            return QNAsyncBlockTask<Int> { _ in value }
        }
        guard case .failed(let error) = try await outcome(of: chain) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? TestError == TestError(1))
        #expect(called.all.isEmpty)

        let throwing = QNAsyncBlockTask<Int> { _ in 1 }.map(on: .global()) { _ -> Int in throw TestError(2) }
        guard case .failed(let thrown) = try await outcome(of: throwing) else {
            Issue.record("expected a failure")
            return
        }
        #expect(thrown as? TestError == TestError(2))
    }

    @Test("cancelling while the first step runs cancels it; the steps after it never start")
    func cancelAtFirstStep() async throws {
        let first = Step("first")
        let second = Step("second")
        let chain = first.task.then(on: .global()) { _ in second.task }.map(on: .global()) { $0 + 1 }
        let finished = Signal()
        let reports = Recorder<String>()
        chain.start(on: .global()) { outcome in
            reports.record(outcome.isCancelled ? "cancelled" : "finished")
            finished.fire()
        }
        try await first.started.fired()
        chain.cancel()
        try await finished.fired()
        #expect(reports.all == ["cancelled"])
        #expect(first.task.state == .cancelled)
        #expect(!second.hasStarted)
    }

    @Test("cancelling while the task then returned runs cancels that task")
    func cancelAtAdoptedStep() async throws {
        let first = Step("first")
        let second = Step("second")
        let chain = first.task.then(on: .global()) { _ in second.task }
        let finished = Signal()
        chain.start(on: .global()) { _ in finished.fire() }
        try await first.started.fired()
        first.task.succeed(1)
        try await second.started.fired()
        chain.cancel()
        try await finished.fired()
        #expect(chain.state == .cancelled)
        #expect(first.task.state == .succeeded)
        #expect(second.task.state == .cancelled)
    }

    @Test("a cancelled source cancels its continuation; cancelling a finished chain does nothing")
    func sourceCancelledAndLateCancel() async throws {
        let first = Step("first")
        let chain = first.task.map(on: .global()) { $0 + 1 }
        let finished = Signal()
        chain.start(on: .global()) { _ in finished.fire() }
        try await first.started.fired()
        first.task.cancel()
        try await finished.fired()
        #expect(chain.state == .cancelled)

        let done = QNAsyncBlockTask<Int> { _ in 1 }.map(on: .global()) { $0 + 1 }
        #expect(try await outcome(of: done).value == 2)
        done.cancel()
        #expect(done.state == .succeeded)
    }

    @Test("a task adopted from outside before the step ran is cancelled with the still running source")
    func adoptBeforeStepThenCancel() async throws {
        let source = Step("source")
        let continuation = QNAsyncContinuationTask<Int, Int>(source: source.task, queue: .global()) { _, next in
            next.succeed(0)
        }
        continuation.start()
        try await source.started.fired()
        let adopted = Step("adopted")
        continuation.adopt(adopted.task)
        try await adopted.started.fired()
        continuation.cancel()
        // Both tasks the continuation waits for are cancelled: before the fix the adopted task
        // took the source's place, and the source kept running.
        #expect(source.task.state == .cancelled)
        #expect(adopted.task.state == .cancelled)
        #expect(continuation.state == .cancelled)
    }

    @Test("a continuation started and cancelled inside a drain never starts its source, and lets it go")
    func cancelledBeforeDeferredStart() async throws {
        final class Box: @unchecked Sendable {
            // @unchecked Sendable: written once before the handler runs, read after.
            weak var source: QNAsyncManualTask<Int>?
        }
        let box = Box()
        let sourceStarts = Recorder<Void>()
        let trigger = QNAsyncManualTask<Int>()
        do {
            let source = QNAsyncManualTask<Int> { _ in sourceStarts.record(()) }
            box.source = source
            let continuation = source.map(on: .global()) { $0 + 1 }
            // Inside a cancellation handler the drain is active: the continuation's start of its
            // source is deferred to the end of the drain, and the cancel comes first.
            trigger.onCancel {
                continuation.start()
                continuation.cancel()
            }
        }
        trigger.cancel()
        #expect(sourceStarts.all.isEmpty)
        #expect(box.source == nil, "the source of a continuation cancelled before its start is let go")
    }

    @Test("cancelling the Swift Task awaiting value cancels the running step")
    func swiftTaskCancellation() async throws {
        let first = Step("first")
        let chain = first.task.map(on: .global()) { $0 + 1 }
        let waiting = Task { try await chain.value }
        try await first.started.fired()
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(first.task.state == .cancelled)
        #expect(chain.state == .cancelled)
    }

    @Test("a 100,000-link map chain starts, finishes and is freed without deepening the stack")
    func longChain() async throws {
        let root = QNAsyncManualTask<Int>()
        var chain: QNAsyncTask<Int> = root
        for _ in 0..<100_000 { chain = chain.map(on: .global()) { $0 + 1 } }
        let result = try await awaitCompletion("the chain", timeout: longTimeout(.seconds(120))) { complete in
            chain.start(on: .global()) { complete(.success($0.value ?? -1)) }
            root.succeed(0)
        }
        #expect(result == 100_000)
    }

    @Test("a dropped, never-started 100,000-link chain is freed without deepening the stack")
    func droppedUnstartedChain() {
        expectDroppedNestFreed(innermost: { QNAsyncManualTask<Int>() }) { $0.map(on: .global()) { $0 + 1 } }
    }
}

@Suite("QN then: nested adoption")
struct QNNestedAdoptionTests {
    /// A recursive `then`: each level adopts the continuation of the next, as polling does.
    static func countdown(_ remaining: Int) -> QNAsyncTask<Int> {
        QNAsyncBlockTask<Int>(queue: .global()) { _ in remaining }.then(on: .global()) { value in
            value == 0 ? QNAsyncBlockTask<Int>(queue: .global()) { _ in 0 } : countdown(value - 1)
        }
    }

    @Test("a 20,000-deep nest of continuations adopting one another finishes without deepening the stack")
    func deepNest() async throws {
        // Each level finished the one that adopted it inline before: 20,000 nested frame sets.
        let result = try await outcome(of: Self.countdown(20_000), timeout: longTimeout(.seconds(120)))
        #expect(result.value == 0)
    }
}
