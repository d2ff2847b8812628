import Dispatch
import QNTasks
import TestSupport
import Testing

@Suite("QN block task")
struct QNAsyncBlockTaskTests {
    @Test("the block receives the task and runs on the given queue")
    func runsOnQueue() async throws {
        let queue = TaggedQueue("qn.block")
        let seen = Recorder<String>()
        let task = QNAsyncBlockTask<String>(taskID: "named", queue: queue.queue) { task in
            #expect(queue.isCurrent)
            seen.record(task.taskID)
            return "done"
        }
        #expect(try await outcome(of: task).value == "done")
        #expect(seen.all == ["named"])
    }

    @Test("cancel during the block: the block sees it, its result is ignored, cancelled is reported once")
    func cancelDuringBlock() async throws {
        let started = Signal()
        let cancelled = Signal()
        let sawCancellation = Recorder<Bool>()
        let task = QNAsyncBlockTask<Int> { task in
            started.fire()
            #expect(cancelled.wait())
            sawCancellation.record(task.isCancelled)
            return 99  // ignored: the task was cancelled first
        }
        let reports = Recorder<String>()
        let finished = Signal()
        task.start(on: .global()) { outcome in
            reports.record(outcome.name)
            finished.fire()
        }
        try await started.fired()
        task.cancel()
        cancelled.fire()
        try await finished.fired()
        try await eventually("the block finished", timeout: qnTimeout) { sawCancellation.count == 1 }
        try await waitUntil(timeout: qnTimeout) { done in DispatchQueue.global().async { done() } }
        #expect(sawCancellation.all == [true])
        #expect(reports.all == ["cancelled"])
        #expect(task.outcome?.isCancelled == true)
    }

    @Test("checkCancellation throws once cancelled, and the block stops early")
    func checkCancellation() async throws {
        let started = Signal()
        let cancelled = Signal()
        let steps = Recorder<Int>()
        let blockEnded = Signal()
        let task = QNAsyncBlockTask<Int> { task in
            defer { blockEnded.fire() }
            started.fire()
            #expect(cancelled.wait())
            for step in 0..<10 {
                try task.checkCancellation()
                steps.record(step)
            }
            return 1
        }
        let stopped = Signal()
        task.start(on: .global()) { _ in stopped.fire() }
        try await started.fired()
        task.cancel()
        cancelled.fire()
        try await stopped.fired()
        #expect(task.isCancelled)
        // The block's own end comes after the (immediate) cancelled report: wait for it.
        try await blockEnded.fired()
        #expect(steps.all.isEmpty)
    }

    @Test("a block that throws CancellationError by itself cancels the task")
    func throwsCancellation() async throws {
        let task = QNAsyncBlockTask<Int> { _ in throw CancellationError() }
        #expect(try await outcome(of: task).isCancelled)
        #expect(task.state == .cancelled)
    }
}
