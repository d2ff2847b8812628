import Dispatch
import QNTasks
import TestSupport
import Testing

/// QN only: cancellation racing completion and start, and cancel after the task finished.
@Suite("Reliability: QN cancellation races", .serialized)
struct QNReliabilityTests {
    static let threads = 8
    static let rounds = stressSize(2_000)

    struct Round: Sendable {
        let task: QNAsyncManualTask<Int>
        let outcomes = Recorder<String>()
        let cleanups = Recorder<Void>()
        let starts = Recorder<Void>()
    }

    static func name(_ outcome: QNTaskOutcome<Int>) -> String {
        switch outcome {
        case .succeeded(let value): return "succeeded(\(value))"
        case .failed(let error): return "failed(\(error))"
        case .cancelled: return "cancelled"
        }
    }

    @Test("cancel racing completion from 8 threads: one outcome, one callback, cleanup only if cancelled")
    func cancelRacingCompletion() async throws {
        let calls = Countdown(Self.rounds)
        let rounds = try await offPool("cancel racing completion", timeout: heavyTimeout) {
            raceRounds(
                threads: Self.threads,
                rounds: Self.rounds,
                prepare: { _ in
                    let round = Round(task: QNAsyncManualTask<Int>(taskID: "race"))
                    round.task.onCancel { round.cleanups.record(()) }
                    round.task.start(on: .global()) { outcome in
                        round.outcomes.record(Self.name(outcome))
                        calls.tick()
                    }
                    return round
                },
                body: { round, index in
                    switch index % 3 {
                    case 0: round.task.cancel()
                    case 1: _ = round.task.succeed(index)
                    default: _ = round.task.fail(TestError(index))
                    }
                }
            )
        }
        try await calls.wait("every task's callback", timeout: heavyTimeout)
        var cancelled = 0
        for (number, round) in rounds.enumerated() {
            let outcomes = round.outcomes.all
            guard outcomes.count == 1, let outcome = round.task.outcome, outcomes[0] == Self.name(outcome) else {
                Issue.record(
                    "round \(number): callbacks \(outcomes), outcome \(String(describing: round.task.outcome))")
                return
            }
            if outcome.isCancelled { cancelled += 1 }
            #expect(round.cleanups.count == (outcome.isCancelled ? 1 : 0), "round \(number): cleanups")
        }
        #expect(calls.remaining == 0)
        // Not asserted (it depends on scheduling), but printed for the report.
        print("QN cancel racing completion: \(cancelled) of \(Self.rounds) rounds ended cancelled")
    }

    @Test(
        "cancel racing start from 8 threads: the work runs at most once, never after cancellation, every start gets the outcome once"
    )
    func cancelRacingStart() async throws {
        let calls = Countdown(Self.rounds * (Self.threads - 1))
        let rounds = try await offPool("cancel racing start", timeout: heavyTimeout) {
            raceRounds(
                threads: Self.threads,
                rounds: Self.rounds,
                prepare: { _ in
                    let starts = Recorder<Void>()
                    let task = QNAsyncManualTask<Int>(taskID: "start-race") { task in
                        starts.record(())
                        _ = task.succeed(1)
                    }
                    return (task: task, starts: starts, outcomes: Recorder<String>())
                },
                body: { round, index in
                    if index == 0 {
                        round.task.cancel()
                    } else {
                        round.task.start(on: .global()) { outcome in
                            round.outcomes.record(Self.name(outcome))
                            calls.tick()
                        }
                    }
                }
            )
        }
        try await calls.wait("every start's callback", timeout: heavyTimeout)
        for (number, round) in rounds.enumerated() {
            let outcomes = round.outcomes.all
            guard let outcome = round.task.outcome, outcomes.count == Self.threads - 1,
                outcomes.allSatisfy({ $0 == Self.name(outcome) }), round.starts.count <= 1,
                outcome.isCancelled || round.starts.count == 1
            else {
                Issue.record(
                    "round \(number): callbacks \(outcomes), starts \(round.starts.count), outcome \(String(describing: round.task.outcome))"
                )
                return
            }
        }
        #expect(calls.remaining == 0)
    }

    @Test("a block task started from 8 threads at once runs its work once; every start gets the one outcome")
    func blockTaskStartRace() async throws {
        let calls = Countdown(Self.rounds * Self.threads)
        let rounds = try await offPool("block task start race", timeout: heavyTimeout) {
            raceRounds(
                threads: Self.threads,
                rounds: Self.rounds,
                prepare: { _ in
                    let runs = Recorder<Void>()
                    let task = QNAsyncBlockTask<Int>(queue: .global()) { _ in
                        runs.record(())
                        return 7
                    }
                    return (task: task, runs: runs, outcomes: Recorder<String>())
                },
                body: { round, index in
                    let outcomes = round.outcomes
                    round.task.start(on: .global()) { @Sendable outcome in
                        outcomes.record("\(index): \(Self.name(outcome))")
                        calls.tick()
                    }
                }
            )
        }
        try await calls.wait("every start's callback", timeout: heavyTimeout)
        for (number, round) in rounds.enumerated() {
            // Each start's callback once: one per thread, each with the one outcome.
            let expected = Set((0..<Self.threads).map { "\($0): succeeded(7)" })
            guard round.runs.count == 1, round.outcomes.all.count == Self.threads,
                Set(round.outcomes.all) == expected
            else {
                Issue.record("round \(number): work ran \(round.runs.count) times, callbacks \(round.outcomes.all)")
                return
            }
        }
        #expect(calls.remaining == 0)
    }

    @Test("a generated task ID read from 8 threads at once is one ID")
    func taskIDRace() async throws {
        let rounds = try await offPool("task ID race", timeout: heavyTimeout) {
            raceRounds(
                threads: Self.threads,
                rounds: Self.rounds,
                prepare: { _ in (task: QNAsyncManualTask<Int>(), ids: Recorder<String>()) },
                body: { round, _ in round.ids.record(round.task.taskID) }
            )
        }
        for (number, round) in rounds.enumerated() where Set(round.ids.all).count != 1 {
            Issue.record("round \(number): IDs \(Set(round.ids.all))")
            return
        }
    }

    @Test("cancel after the task finished changes nothing and runs no cleanup")
    func cancelAfterFinish() async throws {
        let cleanups = Recorder<Void>()
        let task = QNAsyncBlockTask<Int>(taskID: "finished") { _ in 9 }
        task.onCancel { cleanups.record(()) }
        let outcome = try await awaitCompletion("the task") { complete in
            task.start(on: .global()) { complete(.success(Self.name($0))) }
        }
        #expect(outcome == "succeeded(9)")
        task.cancel()
        task.cancel()
        #expect(task.state == .succeeded)
        #expect(task.outcome?.value == 9)
        #expect(cleanups.count == 0)
        // A start after the cancel still gets the one outcome.
        let again = try await awaitCompletion("a later start") { complete in
            task.start(on: .global()) { complete(.success(Self.name($0))) }
        }
        #expect(again == "succeeded(9)")
    }

    @Test("a parallel all task whose sub-tasks finish from 8 threads gets every value, in order")
    func parallelAllFromManyThreads() async throws {
        let width = 64
        let rounds = stressSize(200)
        for round in 0..<rounds {
            let subTasks = (0..<width).map { QNAsyncManualTask<Int>(taskID: "sub\($0)") }
            let all = QNAsyncParallelTask<[Int]>(all: subTasks.map { $0 as QNAsyncTask<Int> })
            let outcome = try await awaitCompletion("the parallel task") { complete in
                all.start(on: .global()) { complete(.success($0)) }
                DispatchQueue.global().async {
                    DispatchQueue.concurrentPerform(iterations: width) { index in
                        _ = subTasks[index].succeed(index * round)
                    }
                }
            }
            guard outcome.value == (0..<width).map({ $0 * round }) else {
                Issue.record("round \(round): \(outcome)")
                return
            }
        }
    }
}
