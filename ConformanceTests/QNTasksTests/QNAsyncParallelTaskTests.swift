import Dispatch
import QNTasks
import TestSupport
import Testing

/// A manual task that succeeds with `value` after `hops` queue hops, or stays pending (until
/// cancelled) when `hops` is nil; records its cancellation.
private func fake(_ value: Int, hops: Int?, cancelled: Recorder<Int>) -> QNAsyncManualTask<Int> {
    QNAsyncManualTask(taskID: "fake-\(value)") { task in
        task.onCancel { cancelled.record(value) }
        if let hops { after(hops: hops, on: .global()) { task.succeed(value) } }
    }
}

@Suite("QN parallel task")
struct QNAsyncParallelTaskTests {
    @Test("all: every result, in the order given, whatever order they finish in")
    func allResults() async throws {
        let cancelled = Recorder<Int>()
        let task = QNAsyncParallelTask(all: [
            fake(1, hops: 30, cancelled: cancelled), fake(2, hops: 0, cancelled: cancelled),
            fake(3, hops: 10, cancelled: cancelled),
        ])
        #expect(try await outcome(of: task).value == [1, 2, 3])
        #expect(cancelled.all.isEmpty)
    }

    @Test("all: the first failure fails it and cancels the others")
    func allFailure() async throws {
        let cancelled = Recorder<Int>()
        let pending = fake(1, hops: nil, cancelled: cancelled)
        let failing = QNAsyncBlockTask<Int> { _ in throw TestError(5) }
        let task = QNAsyncParallelTask(all: [pending, failing])
        #expect(try await outcome(of: task).error as? TestError == TestError(5))
        #expect(pending.state == .cancelled)
        #expect(cancelled.all == [1])
    }

    @Test("all: with no sub-tasks it succeeds with []")
    func allEmpty() async throws {
        #expect(try await outcome(of: QNAsyncParallelTask<[Int]>(all: [QNAsyncTask<Int>]())).value == [])
    }

    @Test("first success wins and cancels the rest")
    func firstSuccess() async throws {
        let cancelled = Recorder<Int>()
        let slow = fake(1, hops: nil, cancelled: cancelled)
        let failing = QNAsyncBlockTask<Int> { _ in throw TestError(1) }
        let fast = fake(2, hops: 3, cancelled: cancelled)
        let task = QNAsyncParallelTask(firstSuccessOf: [slow, failing, fast])
        #expect(try await outcome(of: task).value == 2)
        #expect(slow.state == .cancelled)
        #expect(cancelled.all == [1])
    }

    @Test("first success: when all fail it fails with every error; with none it is an invalid argument")
    func firstSuccessFailures() async throws {
        let cancelledSub = QNAsyncManualTask<Int>()
        cancelledSub.cancel()
        let task = QNAsyncParallelTask(firstSuccessOf: [
            QNAsyncBlockTask<Int> { _ in throw TestError(1) }, cancelledSub,
            QNAsyncBlockTask<Int> { _ in throw TestError(3) },
        ])
        let error = try #require(try await outcome(of: task).error as? QNAllFailedError)
        #expect(error.errors.count == 3)
        #expect(error.errors[0] as? TestError == TestError(1))
        #expect(error.errors[1] is CancellationError)
        #expect(error.errors[2] as? TestError == TestError(3))
        let empty = QNAsyncParallelTask<Int>(firstSuccessOf: [])
        guard case .invalidArgument = try await outcome(of: empty).error as? QNTaskError else {
            Issue.record("expected invalidArgument")
            return
        }
    }

    @Test("once started, the parallel task does not keep its sub-tasks alive, finished or never-finishing")
    func releasesSubTasks() async throws {
        var fast: QNAsyncBlockTask<Int>? = QNAsyncBlockTask { _ in 1 }
        // Nobody holds what could complete it: only the parallel task could keep it alive.
        var stuck: QNAsyncManualTask<Int>? = QNAsyncManualTask(taskID: "stuck")
        let weakFast = Weak(fast)
        let weakStuck = Weak(stuck)
        let task = QNAsyncParallelTask(firstSuccessOf: [fast!, stuck!])
        fast = nil
        stuck = nil
        #expect(try await outcome(of: task).value == 1)
        try await eventually("the sub-tasks are freed") {
            weakFast.object == nil && weakStuck.object == nil
        }
        #expect(task.state == .succeeded)
    }

    @Test("a parallel task cancelled before it started lets go of its sub-tasks")
    func releasesSubTasksWhenCancelledBeforeStart() async throws {
        var sub: QNAsyncManualTask<Int>? = QNAsyncManualTask(taskID: "never started")
        let weakSub = Weak(sub)
        let task = QNAsyncParallelTask(all: [sub!])
        sub = nil
        task.cancel()
        try await eventually("the sub-task is freed") { weakSub.object == nil }
        #expect(try await outcome(of: task).isCancelled)
    }

    @Test("cancelling the parallel task cancels every running sub-task")
    func cancelAll() async throws {
        let cancelled = Recorder<Int>()
        let subs = [fake(1, hops: nil, cancelled: cancelled), fake(2, hops: nil, cancelled: cancelled)]
        let task = QNAsyncParallelTask(all: subs)
        let reports = Recorder<String>()
        try await waitUntil { done in
            task.start(on: .global()) { outcome in
                reports.record(outcome.name)
                done()
            }
            task.cancel()
        }
        #expect(reports.all == ["cancelled"])
        #expect(subs.map(\.state) == [.cancelled, .cancelled])
        #expect(Set(cancelled.all) == [1, 2])
    }
}

extension QNAsyncParallelTaskTests {
    @Test("a dropped 100,000-deep nest of parallel tasks that never started is freed without overflowing the stack")
    func droppedUnstartedNest() {
        expectDroppedNestFreed(innermost: { QNAsyncManualTask<Int>() }) { inner in
            QNAsyncParallelTask<Int>(firstSuccessOf: [inner])
        }
    }
}

extension QNAsyncParallelTaskTests {
    @Test("a 100,000-deep nest of first-success tasks starts flat, and its nested error is described and freed flat")
    func deepFirstSuccessNest() async throws {
        let depth = stressSize(100_000)
        var outer: QNAsyncTask<Int> = QNAsyncManualTask<Int> { $0.fail(TestError(7)) }
        for _ in 0..<depth { outer = QNAsyncParallelTask<Int>(firstSuccessOf: [outer]) }
        // Each level starts the one inside it from its own start: inline, 100,000 nested starts.
        var error: QNAllFailedError? = try #require(
            try await outcome(of: outer, timeout: longTimeout(.seconds(120))).error as? QNAllFailedError)
        // Each level wraps the one inside it; the description names the next level only.
        #expect(error?.description == "All 1 sub-tasks failed: [QNAllFailedError(1 sub-tasks failed)]")
        var level = error
        var levels = 0
        while let inner = level?.errors.first as? QNAllFailedError {
            level = inner
            levels += 1
        }
        #expect(levels == depth - 1)
        #expect(level?.errors.first as? TestError == TestError(7))
        level = nil
        // The outer task keeps its outcome, and so the nest of errors: freed with it, flat.
        outer = QNAsyncManualTask<Int>()
        error = nil
    }
}
