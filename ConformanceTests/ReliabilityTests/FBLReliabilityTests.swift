import Dispatch
import FBLPromises
import TestSupport
import Testing

/// FBL only: all/any/race whose inputs settle from many threads, observers on their own queues,
/// and the operators' promises freed once settled.
@Suite("Reliability: FBL operators under stress", .serialized)
struct FBLReliabilityTests {
    static let width = stressSize(100_000)

    /// Settles `inputs` from many threads at once (`settle` gets each input's index).
    static func settleFromManyThreads<Value>(
        _ inputs: [FBLPromise<Value>],
        _ settle: @escaping @Sendable (FBLPromise<Value>, Int) -> Void
    ) {
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: inputs.count) { index in settle(inputs[index], index) }
        }
    }

    @Test("a 100,000-way all whose inputs are fulfilled from many threads has every value in order")
    func wideAll() async throws {
        let queue = DispatchQueue(label: "fbl.all", attributes: .concurrent)
        let inputs = (0..<Self.width).map { _ in FBLPromise<Int>.pending() }
        let combined = all(on: queue, inputs)
        Self.settleFromManyThreads(inputs) { input, index in input.fulfill(index) }
        let values = try await awaitCompletion("all", timeout: heavyTimeout) { complete in
            combined.observe(on: queue, fulfill: { complete(.success($0)) }, reject: { complete(.failure($0)) })
        }
        #expect(values == Array(0..<Self.width))
    }

    @Test("a 100,000-way any whose inputs settle either way from many threads reports each one")
    func wideAny() async throws {
        let queue = DispatchQueue(label: "fbl.any", attributes: .concurrent)
        let inputs = (0..<Self.width).map { _ in FBLPromise<Int>.pending() }
        let combined = any(on: queue, inputs)
        Self.settleFromManyThreads(inputs) { input, index in
            if index.isMultiple(of: 2) { input.fulfill(index) } else { input.reject(TestError(index)) }
        }
        let outcomes = try await awaitCompletion("any", timeout: heavyTimeout) { complete in
            combined.observe(on: queue, fulfill: { complete(.success($0)) }, reject: { complete(.failure($0)) })
        }
        #expect(outcomes.count == Self.width)
        let wrong = outcomes.enumerated().filter { index, outcome in
            index.isMultiple(of: 2)
                ? outcome.value != index : (outcome.error as? TestError) != TestError(index)
        }
        #expect(wrong.isEmpty)
    }

    @Test("race among 1,000 inputs settled from many threads settles once, with one input's outcome")
    func raceFromManyThreads() async throws {
        for round in 0..<stressSize(100) {
            let queue = DispatchQueue(label: "fbl.race", attributes: .concurrent)
            let inputs = (0..<1_000).map { _ in FBLPromise<Int>.pending() }
            let winner = race(on: queue, inputs)
            let calls = Recorder<Result<Int, any Error>>()
            try await waitUntil("race") { done in
                winner.observe(
                    on: queue,
                    fulfill: {
                        calls.record(.success($0))
                        done()
                    },
                    reject: {
                        calls.record(.failure($0))
                        done()
                    }
                )
                Self.settleFromManyThreads(inputs) { input, index in
                    if index.isMultiple(of: 2) { input.fulfill(index) } else { input.reject(TestError(index)) }
                }
            }
            try await waitUntil("a barrier on the race queue") { done in queue.async(flags: .barrier) { done() } }
            let outcome = try #require(winner.result)
            let call = calls.all
            guard call.count == 1 else {
                Issue.record("round \(round): \(call.count) callbacks")
                return
            }
            switch (call[0], outcome) {
            case (.success(let seen), .success(let kept)):
                #expect(seen == kept && seen.isMultiple(of: 2))
            case (.failure(let seen), .failure(let kept)):
                let code = (seen as? TestError)?.code
                #expect(code == (kept as? TestError)?.code && code.map { !$0.isMultiple(of: 2) } == true)
            default:
                Issue.record("round \(round): callback \(call[0]) but result \(outcome)")
            }
        }
    }

    @Test("observers attached from many threads, each with its own queue, each run once on that queue")
    func observersOnTheirQueues() async throws {
        let rounds = stressSize(200)
        let perRound = 16
        for round in 0..<rounds {
            let source = FBLPromise<Int>.pending()
            let queues = (0..<perRound).map { TaggedQueue("fbl.observer.\($0)") }
            let seen = Recorder<(Int, Int, Bool)>()
            let calls = Countdown(perRound)
            DispatchQueue.global().async {
                DispatchQueue.concurrentPerform(iterations: perRound + 1) { index in
                    guard index < perRound else { return source.fulfill(round) }
                    let queue = queues[index]
                    source.observe(
                        on: queue.queue,
                        fulfill: { value in
                            seen.record((index, value, queue.isCurrent))
                            calls.tick()
                        },
                        reject: { _ in calls.tick() }
                    )
                }
            }
            try await calls.wait("every observer")
            let all = seen.all
            guard all.count == perRound, Set(all.map(\.0)) == Set(0..<perRound),
                all.allSatisfy({ $0.1 == round && $0.2 })
            else {
                Issue.record("round \(round): \(all)")
                return
            }
        }
    }

    @Test("the promises of all, any, race, timeout, delay and retry are freed once settled and dropped")
    func operatorsFreed() async throws {
        let weak = Recorder<Weak<FBLPromise<Int>>>()
        let weakArrays = Recorder<Weak<FBLPromise<[Int]>>>()
        let weakMaybes = Recorder<Weak<FBLPromise<[Maybe<Int>]>>>()
        do {
            let inputs = (0..<3).map { FBLPromise<Int>($0) }
            let combined = all(on: .global(), inputs)
            let anyOf = any(on: .global(), inputs)
            let raced = race(on: .global(), inputs)
            let timed = inputs[0].timeout(on: .global(), 60)
            let delayed = inputs[1].delay(on: .global(), 0.001)
            let retried = retry(on: .global(), attempts: 2, delay: 0.001) { FBLPromise<Int>(4) }
            for promise in inputs + [raced, timed, delayed, retried] { weak.record(Weak(promise)) }
            weakArrays.record(Weak(combined))
            weakMaybes.record(Weak(anyOf))
            #expect(try await value(of: combined) == [0, 1, 2])
            #expect(try await value(of: anyOf).map(\.value) == [0, 1, 2])
            _ = try await value(of: raced)
            #expect(try await value(of: timed) == 0)
            #expect(try await value(of: delayed) == 1)
            #expect(try await value(of: retried) == 4)
        }
        try await eventually("every operator's promise to be freed") {
            weak.all.allSatisfy { $0.object == nil } && weakArrays.all.allSatisfy { $0.object == nil }
                && weakMaybes.all.allSatisfy { $0.object == nil }
        }
    }
}

func value<Value: Sendable>(of promise: FBLPromise<Value>) async throws -> Value {
    try await awaitCompletion("an FBL promise") { complete in
        promise.observe(on: .global(), fulfill: { complete(.success($0)) }, reject: { complete(.failure($0)) })
    }
}
