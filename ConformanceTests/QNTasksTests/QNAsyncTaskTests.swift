import Dispatch
import QNTasks
import TestSupport
import Testing

/// The life of a task: lazy start, the one outcome, cancellation at every point, progress.
@Suite("QN task life cycle")
struct QNAsyncTaskTests {
    @Test("a result of an optional or existential type reaches every callback as it was given")
    func optionalAndExistentialResults() async throws {
        // The task's core holds the outcome erased to `any Sendable`; these are the types where
        // erasing and casting back could go wrong (an optional's `nil`, an existential in an
        // existential).
        let none = QNAsyncManualTask<Int?>()
        none.succeed(nil)
        #expect(try await outcome(of: none).value == .some(nil))
        #expect(try await none.value == nil)
        #expect(none.outcome?.value == .some(nil))
        #expect(try await outcome(of: none.map(on: .global()) { $0 ?? -1 }).value == -1)

        let some = QNAsyncManualTask<any Sendable>()
        some.succeed(7)
        #expect(try await outcome(of: some).value as? Int == 7)
        #expect(try await some.value as? Int == 7)
        #expect(try await outcome(of: some.map(on: .global()) { $0 as? Int ?? -1 }).value == 7)
    }

    @Test("nothing runs until start; then ready -> running -> succeeded")
    func lazyStart() async throws {
        let queue = TaggedQueue("qn.lazy")
        let runs = Recorder<String>()
        let gate = Signal()
        let task = QNAsyncBlockTask<Int>(taskID: "lazy", queue: queue.queue) { _ in
            runs.record("run")
            #expect(gate.wait())
            return 7
        }
        // A hop through the work queue: had the task started its work, it would be queued before.
        try await waitUntil { done in queue.queue.async { done() } }
        #expect(runs.all.isEmpty)
        #expect(task.state == .ready)
        let result = Recorder<QNTaskOutcome<Int>>()
        try await waitUntil { done in
            task.start(on: .global()) { outcome in
                result.record(outcome)
                done()
            }
            #expect(task.state == .running)
            gate.fire()
        }
        #expect(runs.all == ["run"])
        #expect(result.all.map(\.value) == [7])
        #expect(task.state == .succeeded)
        #expect(task.outcome?.value == 7)
    }

    @Test("a failed task reports its error; the success/failure form reports it to failure")
    func failure() async throws {
        let task = QNAsyncBlockTask<Int> { _ in throw TestError(3) }
        let error = try await awaitCompletion("failure") { complete in
            task.start(
                on: .global(), success: { _ in complete(.failure(TestError(-1))) }, failure: { complete(.success($0)) })
        }
        #expect(error as? TestError == TestError(3))
        #expect(task.state == .failed)
    }

    @Test("starting twice runs the work once; both callbacks get the one outcome")
    func startTwice() async throws {
        let runs = Recorder<Int>()
        let task = QNAsyncManualTask<Int>(taskID: "twice") { task in
            runs.record(1)
            after(hops: 3, on: .global()) { task.succeed(5) }
        }
        let outcomes = Recorder<Int?>()
        try await waitUntil { done in
            let both = Recorder<Int>()
            for _ in 0..<2 {
                task.start(on: .global()) { outcome in
                    outcomes.record(outcome.value)
                    both.record(1)
                    if both.count == 2 { done() }
                }
            }
        }
        // A start after the task finished only receives the outcome.
        #expect(try await outcome(of: task).value == 5)
        #expect(runs.count == 1)
        #expect(outcomes.all == [5, 5])
    }

    @Test("completion runs on the given queue, never before start returns")
    func completionQueue() async throws {
        let queue = TaggedQueue("qn.completion")
        // The task finishes inside `start`; started from its own callback queue, a synchronous
        // call would record "callback" first, a queued one cannot run until this block ends.
        let task = QNAsyncManualTask<Int>(taskID: "sync") { $0.succeed(1) }
        let returned = Recorder<String>()
        try await waitUntil { done in
            queue.queue.async {
                task.start(on: queue.queue) { _ in
                    #expect(queue.isCurrent)
                    returned.record("callback")
                    done()
                }
                returned.record("start returned")
            }
        }
        #expect(returned.all == ["start returned", "callback"])
    }

    @Test("cancel before start: the work never runs, start reports cancelled, cleanup runs once")
    func cancelBeforeStart() async throws {
        let runs = Recorder<String>()
        let cleanups = Recorder<String>()
        let task = QNAsyncBlockTask<Int> { _ in
            runs.record("run")
            return 1
        }
        task.onCancel { cleanups.record("cleanup") }
        task.cancel()
        #expect(task.isCancelled)
        #expect(task.state == .cancelled)
        #expect(try await outcome(of: task).isCancelled)
        #expect(runs.all.isEmpty)
        #expect(cleanups.all == ["cleanup"])
    }

    @Test("cancel after completion is a no-op: the outcome stays, cleanup never runs")
    func cancelAfterCompletion() async throws {
        let cleanups = Recorder<String>()
        let task = QNAsyncBlockTask<Int> { _ in 4 }
        task.onCancel { cleanups.record("cleanup") }
        #expect(try await outcome(of: task).value == 4)
        task.cancel()
        #expect(task.state == .succeeded)
        #expect(!task.isCancelled)
        #expect(try await outcome(of: task).value == 4)
        #expect(cleanups.all.isEmpty)
    }

    @Test("cancel twice: the cleanup and the callback run once")
    func cancelTwice() async throws {
        let cleanups = Recorder<String>()
        let task = QNAsyncManualTask<Int>(taskID: "twice")
        task.onCancel { cleanups.record("cleanup") }
        let outcomes = Recorder<String>()
        // A private serial queue: a duplicated callback would be queued on it before the check's
        // hop, which therefore comes after it.
        let callbacks = DispatchQueue(label: "qn.cancel-twice")
        try await waitUntil { done in
            task.start(on: callbacks) { outcome in
                outcomes.record(outcome.name)
                done()
            }
            task.cancel()
            task.cancel()
        }
        // One more hop on the callback queue, after every cancel returned, lets a duplicated
        // callback show up.
        task.cancel()
        try await waitUntil { done in callbacks.async { done() } }
        #expect(outcomes.all == ["cancelled"])
        #expect(cleanups.all == ["cleanup"])
    }

    @Test("a cleanup registered after cancellation runs at once; one registered after success never runs")
    func lateCleanup() async throws {
        let cleanups = Recorder<String>()
        let cancelled = QNAsyncManualTask<Int>()
        cancelled.cancel()
        cancelled.onCancel { cleanups.record("late") }
        #expect(cleanups.all == ["late"])
        let succeeded = QNAsyncManualTask<Int>()
        succeeded.succeed(1)
        succeeded.onCancel { cleanups.record("never") }
        succeeded.cancel()
        #expect(cleanups.all == ["late"])
    }

    @Test("cancel racing completion from another thread: exactly one outcome wins, reported once", arguments: [0, 1])
    func cancelRacesCompletion(variant: Int) async throws {
        let rounds = 2_000
        var cancelledWins = 0
        var successWins = 0
        for round in 0..<rounds {
            let cleanups = Recorder<Int>()
            let task = QNAsyncManualTask<Int>(taskID: "race-\(round)")
            task.onCancel { cleanups.record(round) }
            let reports = Recorder<String>()
            let start = Signal()
            let finishedRacing = Recorder<Int>()
            let callbacks = DispatchQueue(label: "qn.race-\(round)")
            try await waitUntil("round \(round)") { done in
                task.start(on: callbacks) { outcome in
                    reports.record(outcome.name)
                    done()
                }
                let racers: [@Sendable () -> Void] = [{ task.cancel() }, { task.succeed(round) }]
                for racer in variant == 0 ? racers : racers.reversed() {
                    DispatchQueue.global().async {
                        _ = start.wait()
                        racer()
                        finishedRacing.record(1)
                    }
                }
                start.fire()
                start.fire()
            }
            try await eventually("both racers finished") { finishedRacing.count == 2 }
            // Both racers returned, so any report they made is queued on the private serial
            // callback queue: a hop through it comes after a duplicated report.
            try await waitUntil { done in callbacks.async { done() } }
            #expect(reports.count == 1)
            switch task.state {
            case .cancelled:
                cancelledWins += 1
                #expect(reports.all == ["cancelled"])
                #expect(cleanups.all == [round])
            case .succeeded:
                successWins += 1
                #expect(reports.all == ["succeeded"])
                #expect(task.outcome?.value == round)
                #expect(cleanups.all.isEmpty)
            default:
                Issue.record("round \(round) ended \(task.state)")
            }
        }
        #expect(cancelledWins + successWins == rounds)
    }

    @Test("task IDs: the given one, or a unique generated one that stays the same")
    func taskIDs() {
        #expect(QNAsyncManualTask<Int>(taskID: "mine").taskID == "mine")
        let generated = (0..<100).map { _ in QNAsyncManualTask<Int>().taskID }
        #expect(Set(generated).count == 100)
        // Generated the first time it is asked for, then kept.
        let task = QNAsyncManualTask<Int>()
        let first = task.taskID
        _ = QNAsyncManualTask<Int>().taskID
        #expect(task.taskID == first)
    }

    @Test("progress reports reach the monitor in order on its queue, clamped; none after the end")
    func progress() async throws {
        let queue = TaggedQueue("qn.progress")
        let reports = Recorder<Double>()
        let task = QNAsyncBlockTask<Int> { task in
            for fraction in [0.25, 0.5, 2.0, .nan, 1.0] { task.reportProgress(fraction) }
            return 1
        }
        task.monitorProgress(on: queue.queue) { fraction in
            #expect(queue.isCurrent)
            reports.record(fraction)
        }
        #expect(try await outcome(of: task, on: queue.queue).value == 1)
        task.reportProgress(0.9)
        try await waitUntil { done in queue.queue.async { done() } }
        #expect(reports.all == [0.25, 0.5, 1.0, 1.0])
    }

    @Test("a finished task is freed")
    func freed() async throws {
        var task: QNAsyncBlockTask<Int>? = QNAsyncBlockTask { _ in 1 }
        let weak = Weak(task)
        #expect(try await outcome(of: task!).value == 1)
        task = nil
        try await eventually("the task is freed") { weak.object == nil }
    }
}
