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
        try await waitUntil { done in
            task.start(on: .global()) { outcome in
                reports.record(outcome.name)
                done()
            }
            #expect(started.wait())
            task.cancel()
            cancelled.fire()
        }
        try await eventually("the block finished") { sawCancellation.count == 1 }
        try await waitUntil { done in DispatchQueue.global().async { done() } }
        #expect(sawCancellation.all == [true])
        #expect(reports.all == ["cancelled"])
        #expect(task.outcome?.isCancelled == true)
    }

    @Test("checkCancellation throws once cancelled, and the block stops early")
    func checkCancellation() async throws {
        let started = Signal()
        let cancelled = Signal()
        let steps = Recorder<Int>()
        let task = QNAsyncBlockTask<Int> { task in
            started.fire()
            #expect(cancelled.wait())
            for step in 0..<10 {
                try task.checkCancellation()
                steps.record(step)
            }
            return 1
        }
        try await waitUntil { done in
            task.start(on: .global()) { _ in done() }
            #expect(started.wait())
            task.cancel()
            cancelled.fire()
        }
        #expect(task.isCancelled)
        #expect(steps.all.isEmpty)
    }

    @Test("a block that throws CancellationError by itself cancels the task")
    func throwsCancellation() async throws {
        let task = QNAsyncBlockTask<Int> { _ in throw CancellationError() }
        #expect(try await outcome(of: task).isCancelled)
        #expect(task.state == .cancelled)
    }
}
