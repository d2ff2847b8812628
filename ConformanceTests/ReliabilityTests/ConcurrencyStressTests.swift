import APlusSuite
import DesignRegistry
import TestSupport
import Testing

/// Races through each design's adapter, for every registered design: many threads settle, observe and
/// chain the same promises at once; every outcome must arrive exactly once, unchanged.
@Suite("Reliability: concurrency stress, every design", .serialized)
struct ConcurrencyStressTests {
    static let threads = 8
    static let settleRounds = stressSize(10_000)
    static let observerRounds = stressSize(1_000)
    static let chainRounds = stressSize(200)
    static let chainLinks = 50

    @Test(
        "8 threads race to fulfil and reject one promise: one outcome wins, each observer sees it once",
        arguments: Design.allCases)
    func settleRace(design: Design) async throws {
        try await Self.settleRace(design.adapter)
    }

    @Test(
        "observers attached from 7 threads while an 8th settles: none lost, none twice, all on the main queue",
        arguments: Design.allCases)
    func observersWhileSettling(design: Design) async throws {
        try await Self.observersWhileSettling(design.adapter)
    }

    @Test(
        "8 threads build chains on one root while one of them settles it: every chain ends right",
        arguments: Design.allCases)
    func chainsWhileSettling(design: Design) async throws {
        try await Self.chainsWhileSettling(design.adapter)
    }

    struct SettleRound<A: APlusAdapter>: Sendable {
        let deferred: APlusDeferred<A.PromiseUnderTest>
        let early: Recorder<Outcome>
        let late = Recorder<Outcome>()
    }

    static func settleRace<A: APlusAdapter>(_: A.Type) async throws {
        let calls = Countdown(settleRounds * 2)
        let rounds = try await offPool("the settle race", timeout: heavyTimeout) {
            raceRounds(
                threads: threads,
                rounds: settleRounds,
                prepare: { _ in
                    let round = SettleRound<A>(deferred: A.deferred(), early: Recorder<Outcome>())
                    A.observe(round.deferred.promise) { outcome in
                        round.early.record(outcome)
                        calls.tick()
                    }
                    return round
                },
                body: { round, index in
                    // Even threads fulfil with their index, odd ones reject with it.
                    if index.isMultiple(of: 2) {
                        round.deferred.resolve(index)
                    } else {
                        round.deferred.reject(TestError(index))
                    }
                }
            )
        }
        for round in rounds {
            A.observe(round.deferred.promise) { outcome in
                round.late.record(outcome)
                calls.tick()
            }
        }
        try await calls.wait("every observer of every round", timeout: heavyTimeout)
        try await drainMainQueue()
        #expect(calls.remaining == 0, "observers called more than once")
        var wins = [Int](repeating: 0, count: threads)
        for (number, round) in rounds.enumerated() {
            let early = round.early.all
            let late = round.late.all
            let state = Outcome(A.currentState(of: round.deferred.promise))
            guard early.count == 1, late.count == 1, let winner = early.first, late == early, state == winner
            else {
                Issue.record("round \(number): early \(early), late \(late), state \(String(describing: state))")
                return
            }
            switch winner {
            case .fulfilled(let index) where index.isMultiple(of: 2): wins[index] += 1
            case .rejected(let index) where !index.isMultiple(of: 2): wins[index] += 1
            default: Issue.record("round \(number): \(winner) is no thread's outcome")
            }
        }
        #expect(wins.reduce(0, +) == settleRounds)
    }

    struct ObserverRound<A: APlusAdapter>: Sendable {
        let deferred: APlusDeferred<A.PromiseUnderTest>
        let seen = Recorder<(thread: Int, outcome: Outcome, onMain: Bool)>()
    }

    static func observersWhileSettling<A: APlusAdapter>(_: A.Type) async throws {
        let calls = Countdown(observerRounds * (threads - 1))
        let rounds = try await offPool("observers while settling", timeout: heavyTimeout) {
            raceRounds(
                threads: threads,
                rounds: observerRounds,
                prepare: { _ in ObserverRound<A>(deferred: A.deferred()) },
                body: { round, index in
                    if index == 0 {
                        round.deferred.resolve(42)
                    } else {
                        A.observe(round.deferred.promise) { outcome in
                            round.seen.record((index, outcome, MainQueue.isCurrent))
                            calls.tick()
                        }
                    }
                }
            )
        }
        try await calls.wait("every observer of every round", timeout: heavyTimeout)
        try await drainMainQueue()
        #expect(calls.remaining == 0, "observers called more than once")
        for (number, round) in rounds.enumerated() {
            let seen = round.seen.all
            let threadsSeen = Set(seen.map(\.thread))
            guard seen.count == threads - 1, threadsSeen == Set(1..<threads),
                seen.allSatisfy({ $0.outcome == .fulfilled(42) && $0.onMain })
            else {
                Issue.record("round \(number): \(seen)")
                return
            }
        }
    }

    struct ChainRound<A: APlusAdapter>: Sendable {
        let deferred: APlusDeferred<A.PromiseUnderTest>
        let ends = Recorder<Outcome>()
    }

    static func chainsWhileSettling<A: APlusAdapter>(_: A.Type) async throws {
        let calls = Countdown(chainRounds * threads)
        let links = chainLinks
        let rounds = try await offPool("chains while settling", timeout: heavyTimeout) {
            raceRounds(
                threads: threads,
                rounds: chainRounds,
                prepare: { _ in ChainRound<A>(deferred: A.deferred()) },
                body: { round, index in
                    var tail = round.deferred.promise
                    for link in 0..<links {
                        tail = A.then(tail, onFulfilled: { ($0 as! Int) + 1 }, onRejected: nil)
                        if index == 0 && link == links / 2 { round.deferred.resolve(1_000) }
                    }
                    A.observe(tail) { outcome in
                        round.ends.record(outcome)
                        calls.tick()
                    }
                }
            )
        }
        try await calls.wait("the end of every chain", timeout: heavyTimeout)
        try await drainMainQueue()
        #expect(calls.remaining == 0, "a chain's end called more than once")
        for (number, round) in rounds.enumerated() {
            let ends = round.ends.all
            guard ends.count == threads, ends.allSatisfy({ $0 == .fulfilled(1_000 + links) }) else {
                Issue.record("round \(number): \(ends)")
                return
            }
        }
    }
}
