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
        // Private serial queues for the work and the callbacks, so hops through them order the
        // block's end and any duplicated report before the checks.
        let work = DispatchQueue(label: "qn.block.work")
        let callbacks = DispatchQueue(label: "qn.block.callbacks")
        let task = QNAsyncBlockTask<Int>(queue: work) { task in
            started.fire()
            #expect(cancelled.wait())
            sawCancellation.record(task.isCancelled)
            return 99  // ignored: the task was cancelled first
        }
        let reports = Recorder<String>()
        let finished = Signal()
        task.start(on: callbacks) { outcome in
            reports.record(outcome.name)
            finished.fire()
        }
        try await started.fired()
        task.cancel()
        cancelled.fire()
        try await finished.fired()
        // The block (and its ignored `finish`) has ended once a hop through the work queue ran;
        // a report it made would then be queued on the callback queue before the second hop.
        try await waitUntil { done in work.async { done() } }
        try await waitUntil { done in callbacks.async { done() } }
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

    @Test("a finished task lets go of its block and of what the block captured")
    func releasesBlock() async throws {
        let captured: Weak<Resource>
        let task: QNAsyncBlockTask<Int>
        do {
            let resource = Resource()
            captured = Weak(resource)
            task = QNAsyncBlockTask<Int>(taskID: "holder") { _ in withExtendedLifetime(resource) { 7 } }
        }
        #expect(captured.object != nil, "a ready task keeps its block")
        #expect(try await outcome(of: task).value == 7)
        // The block is let go on its queue just after it returns, which may be after the
        // outcome was delivered on another queue; the task itself is still held here.
        try await eventually("the finished task's block to be freed") { captured.object == nil }
        withExtendedLifetime(task) {}
    }
}

extension QNAsyncBlockTaskTests {
    @Test("a dropped 100,000-deep nest of block tasks that never started is freed without overflowing the stack")
    func droppedUnstartedNest() {
        // Each block holds the level inside it.
        expectDroppedNestFreed(innermost: { QNAsyncBlockTask<Int> { _ in 0 } }) { inner in
            QNAsyncBlockTask<Int> { _ in inner.taskID.count }
        }
    }
}
