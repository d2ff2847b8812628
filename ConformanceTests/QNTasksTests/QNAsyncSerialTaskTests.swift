import Dispatch
import Foundation
import QNTasks
import TestSupport
import Testing

/// A block task that adds `amount` to the previous sub-task's result (0 for the first).
private func adding(_ amount: Int, to previous: QNAsyncSerialTaskSubState?, id: String? = nil) -> QNAsyncBlockTask<Int>
{
    let base = previous?.result(as: Int.self) ?? 0
    return QNAsyncBlockTask(taskID: id) { _ in base + amount }
}

@Suite("QN serial task")
struct QNAsyncSerialTaskTests {
    @Test("each build block gets the previous sub-state; the monitor sees each; resultGenerate sees all")
    func buildsFromPrevious() async throws {
        let seen = Recorder<String>()
        let monitored = Recorder<String>()
        let task = QNAsyncSerialTask<String>(
            taskID: "serial",
            queue: .global(),
            buildBlocks: [
                { previous in
                    seen.record("first got \(previous == nil ? "nil" : "a sub-state")")
                    return .required(adding(1, to: previous, id: "one"))
                },
                { previous in
                    seen.record("second got \(previous?.taskID ?? "nil")=\(previous?.result(as: Int.self) ?? -1)")
                    return .required(adding(10, to: previous, id: "two"))
                },
            ],
            progressMonitor: { subState in
                monitored.record("\(subState.index):\(subState.taskID)=\(subState.result(as: Int.self) ?? -1)")
            },
            resultGenerate: { subStates in
                subStates.map { "\($0.taskID)=\($0.result(as: Int.self) ?? -1)" }.joined(separator: ",")
            }
        )
        #expect(try await outcome(of: task).value == "one=1,two=11")
        #expect(seen.all == ["first got nil", "second got one=1"])
        #expect(monitored.all == ["0:one=1", "1:two=11"])
    }

    @Test("build blocks, monitor and resultGenerate run on the serial task's queue")
    func queue() async throws {
        let queue = TaggedQueue("qn.serial")
        let task = QNAsyncSerialTask<Int>(
            queue: queue.queue,
            buildBlocks: [
                { previous in
                    #expect(queue.isCurrent)
                    return .required(adding(1, to: previous))
                }
            ],
            progressMonitor: { _ in #expect(queue.isCurrent) },
            resultGenerate: { subStates in
                #expect(queue.isCurrent)
                return subStates.count
            }
        )
        #expect(try await outcome(of: task).value == 1)
    }

    @Test("a required sub-task's failure fails the task; later build blocks never run")
    func requiredFailure() async throws {
        let built = Recorder<Int>()
        let task = QNAsyncSerialTask<Int>(
            queue: .global(),
            buildBlocks: [
                { _ in
                    built.record(0)
                    return .required(QNAsyncBlockTask<Int> { _ in throw TestError(1) })
                },
                { previous in
                    built.record(1)
                    return .required(adding(1, to: previous))
                },
            ],
            resultGenerate: { _ in 0 }
        )
        #expect(try await outcome(of: task).error as? TestError == TestError(1))
        #expect(built.all == [0])
    }

    @Test("an optional sub-task's failure is recorded and the task goes on")
    func optionalFailure() async throws {
        let task = QNAsyncSerialTask<String>(
            queue: .global(),
            buildBlocks: [
                { _ in .optional(QNAsyncBlockTask<Int>(taskID: "flaky") { _ in throw TestError(2) }) },
                { previous in
                    #expect(previous?.error as? TestError == TestError(2))
                    #expect(previous?.isOptional == true)
                    return .required(adding(5, to: previous, id: "after"))
                },
            ],
            resultGenerate: { subStates in subStates.map { "\($0.taskID):\($0.succeeded)" }.joined(separator: ",") }
        )
        #expect(try await outcome(of: task).value == "flaky:false,after:true")
    }

    @Test("a build block returning nil ends the list early; one that throws fails the task")
    func earlyEndAndThrow() async throws {
        let early = QNAsyncSerialTask<Int>(
            queue: .global(),
            buildBlocks: [
                { previous in .required(adding(3, to: previous)) }, { _ in nil },
                { _ in
                    Issue.record("ran"); return nil
                },
            ],
            resultGenerate: { $0.count }
        )
        #expect(try await outcome(of: early).value == 1)
        let throwing = QNAsyncSerialTask<Int>(
            queue: .global(),
            buildBlocks: [{ _ in throw TestError(4) }],
            resultGenerate: { $0.count }
        )
        #expect(try await outcome(of: throwing).error as? TestError == TestError(4))
        let empty = QNAsyncSerialTask<Int>(queue: .global(), buildBlocks: [], resultGenerate: { $0.count })
        #expect(try await outcome(of: empty).value == 0)
    }

    @Test("cancel during a serial task: the running sub-task is cancelled, later ones never start")
    func cancelDuringSerial() async throws {
        let running = Signal()
        let cleanups = Recorder<String>()
        let built = Recorder<Int>()
        let middle = QNAsyncManualTask<Int>(taskID: "middle") { task in
            task.onCancel { cleanups.record("middle cancelled") }
            running.fire()
        }
        // One private serial queue for the steps and the report: a wrong next step (queued when
        // `middle` is cancelled) or a second report would be queued on it before the check's hop.
        let queue = DispatchQueue(label: "qn.serial.cancel")
        let task = QNAsyncSerialTask<Int>(
            queue: queue,
            buildBlocks: [
                { previous in
                    built.record(0)
                    return .required(adding(1, to: previous))
                },
                { _ in
                    built.record(1)
                    return .required(middle)
                },
                { previous in
                    built.record(2)
                    return .required(adding(1, to: previous))
                },
            ],
            resultGenerate: { $0.count }
        )
        let reports = Recorder<String>()
        let finished = Signal()
        task.start(on: queue) { outcome in
            reports.record(outcome.name)
            finished.fire()
        }
        try await running.fired()
        task.cancel()
        try await finished.fired()
        #expect(middle.state == .cancelled)
        #expect(cleanups.all == ["middle cancelled"])
        // Let any (wrong) next step get its chance on the serial task's queue.
        try await waitUntil { done in queue.async { done() } }
        #expect(built.all == [0, 1])
        #expect(reports.all == ["cancelled"])
    }

    @Test(
        "cancel racing the steps of a serial task: reported once; after cancel returns at most one call already past its check"
    )
    func cancelRacesSteps() async throws {
        let rounds = 500
        let steps = 6
        let outcomes = Recorder<String>()
        for round in 0..<rounds {
            let events = Recorder<String>()
            let build: QNAsyncSerialTask<Int>.BuildBlock = { previous in
                let index = (previous?.index ?? -1) + 1
                events.record("build \(index)")
                return .required(
                    QNAsyncBlockTask<Int> { _ in
                        events.record("work \(index)")
                        return index
                    }
                )
            }
            // The steps and the report share a private serial queue, so the check's hop comes
            // after a duplicated report or a wrong late step.
            let queue = DispatchQueue(label: "qn.serial.race-\(round)")
            let task = QNAsyncSerialTask<Int>(
                queue: queue,
                buildBlocks: Array(repeating: build, count: steps),
                progressMonitor: { subState in events.record("monitor \(subState.index)") },
                resultGenerate: { subStates in
                    events.record("generate")
                    return subStates.count
                }
            )
            let reports = Recorder<String>()
            let finished = Signal()
            task.start(on: queue) { outcome in
                reports.record(outcome.name)
                finished.fire()
            }
            // Cancel after a round-dependent number of hops, so it lands between and inside steps.
            let cancelled = Signal()
            after(hops: round % 12, on: .global()) {
                task.cancel()
                events.record("cancel returned")
                cancelled.fire()
            }
            try await finished.fired()
            try await cancelled.fired()
            try await waitUntil { done in queue.async { done() } }
            #expect(reports.count == 1)
            let all = events.all
            outcomes.record("\(reports.all.first ?? "none") after \(all.filter { $0.hasPrefix("work") }.count) steps")
            let cancelIndex = try #require(all.firstIndex(of: "cancel returned"))
            if reports.all == ["cancelled"] {
                // Only the one call already past its check may still run: a sub-task's work, a
                // build block (whose sub-task then never starts: no work follows), a monitor call
                // or resultGenerate.
                #expect(all[(cancelIndex + 1)...].count <= 1, "round \(round): \(all)")
            } else {
                #expect(reports.all == ["succeeded"])
                #expect(all.filter { $0.hasPrefix("work") }.count == steps)
            }
        }
        // How the cancellations landed, for the record (timing-dependent, so not asserted).
        print(
            "QN serial cancel race:",
            Dictionary(grouping: outcomes.all) { $0 }.mapValues(\.count).sorted { $0.key < $1.key })
    }

    @Test("a build block that returns the serial task itself fails it with the cycle error")
    func selfCycle() async throws {
        let holder = Recorder<QNAsyncSerialTask<Int>>()
        let task = QNAsyncSerialTask<Int>(
            queue: .global(),
            buildBlocks: [{ _ in .required(holder.all[0]) }],
            resultGenerate: { $0.count }
        )
        holder.record(task)
        #expect(try await outcome(of: task).error as? QNTaskError == .cycle)
    }

    @Test("cancel before start: no build block runs")
    func cancelBeforeStart() async throws {
        let task = QNAsyncSerialTask<Int>(
            queue: .global(),
            buildBlocks: [
                { _ in
                    Issue.record("built"); return nil
                }
            ],
            resultGenerate: { $0.count }
        )
        task.cancel()
        #expect(try await outcome(of: task).isCancelled)
    }

    @Test("a required sub-task cancelled from outside cancels the serial task")
    func subTaskCancelledOutside() async throws {
        let sub = QNAsyncManualTask<Int>(taskID: "sub") { $0.cancel() }
        let task = QNAsyncSerialTask<Int>(
            queue: .global(), buildBlocks: [{ _ in .required(sub) }], resultGenerate: { $0.count })
        #expect(try await outcome(of: task).isCancelled)
    }

    @Test("the progress fraction is the share of build blocks done")
    func progressFraction() async throws {
        let fractions = Recorder<Double>()
        let task = QNAsyncSerialTask<Int>(
            queue: .global(),
            buildBlocks: Array(repeating: { previous in .required(adding(1, to: previous)) }, count: 4),
            resultGenerate: { $0.count }
        )
        let queue = DispatchQueue(label: "qn.serial.progress")
        task.monitorProgress(on: queue) { fractions.record($0) }
        #expect(try await outcome(of: task, on: queue).value == 4)
        // Each report is queued before the next step starts, so all four precede the outcome.
        #expect(fractions.all == [0.25, 0.5, 0.75, 1.0])
    }

    @Test("cancelling the Swift Task awaiting a 100,000-deep nest of serial tasks cancels every level, flat")
    func cancelDeepNest() async throws {
        let depth = stressSize(100_000)
        let queue = DispatchQueue(label: "qn.serial.nest")
        let launched = Signal()
        let innermost = QNAsyncManualTask<Int>(taskID: "innermost") { _ in launched.fire() }
        var levels: [QNAsyncSerialTask<Int>] = []
        levels.reserveCapacity(depth)
        var inner: QNAsyncTask<Int> = innermost
        for _ in 0..<depth {
            let child = inner
            let level = QNAsyncSerialTask<Int>(
                queue: queue, buildBlocks: [{ _ in .required(child) }], resultGenerate: { $0.count })
            levels.append(level)
            inner = level
        }
        let outer = inner
        let waiter = Task { try await outer.value }
        // Each level registers its cancellation handler before starting the level inside it, so
        // once the innermost task has started every level can reach the next.
        try await launched.fired()
        // The bridge cancels the outer level; each level's handler cancels the one inside it.
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(innermost.state == .cancelled)
        #expect(levels.allSatisfy { $0.state == .cancelled })
    }

    @Test("progress reaches 1 on success when a build block ends the list early, and for no blocks")
    func progressCompletesOnEarlyEnd() async throws {
        let queue = DispatchQueue(label: "qn.serial.progress.early")
        let fractions = Recorder<Double>()
        let early = QNAsyncSerialTask<Int>(
            queue: .global(),
            buildBlocks: [
                { previous in .required(adding(1, to: previous)) }, { _ in nil }, { _ in nil }, { _ in nil },
            ],
            resultGenerate: { $0.count }
        )
        early.monitorProgress(on: queue) { fractions.record($0) }
        #expect(try await outcome(of: early, on: queue).value == 1)
        #expect(fractions.all == [0.25, 1.0])
        let emptyFractions = Recorder<Double>()
        let empty = QNAsyncSerialTask<Int>(queue: .global(), buildBlocks: [], resultGenerate: { $0.count })
        empty.monitorProgress(on: queue) { emptyFractions.record($0) }
        #expect(try await outcome(of: empty, on: queue).value == 0)
        #expect(emptyFractions.all == [1.0])
    }

    @Test("a 100,000-step serial task runs without growing the stack, and is freed")
    func longSerialTask() async throws {
        let steps = stressSize(100_000)
        let queue = DispatchQueue(label: "qn.serial.long")
        let build: QNAsyncSerialTask<Int>.BuildBlock = { previous in
            let base = previous?.result(as: Int.self) ?? 0
            return .required(QNAsyncManualTask<Int> { $0.succeed(base + 1) })
        }
        var task: QNAsyncSerialTask<Int>? = QNAsyncSerialTask(
            queue: queue,
            buildBlocks: Array(repeating: build, count: steps),
            resultGenerate: { $0.last?.result(as: Int.self) ?? -1 }
        )
        let weak = Weak(task)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try await outcome(of: task!, timeout: longTimeout(.seconds(120))).value == steps)
        print("QN 100,000-step serial task: \(clock.now - start)")
        task = nil
        try await eventually("the serial task is freed") { weak.object == nil }
    }
}

extension QNAsyncSerialTaskTests {
    @Test("a dropped 100,000-deep nest of serial tasks that never started is freed without overflowing the stack")
    func droppedUnstartedNest() {
        expectDroppedNestFreed(innermost: { QNAsyncManualTask<Int>() }) { inner in
            QNAsyncSerialTask<Int>(
                queue: .global(), buildBlocks: [{ _ in .required(inner) }], resultGenerate: { $0.count })
        }
    }
}
