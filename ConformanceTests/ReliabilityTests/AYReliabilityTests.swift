import AYPromises
import DesignRegistry
import Dispatch
import TestSupport
import Testing

/// AY only: all and race whose inputs settle from many threads, and their promises freed.
@Suite("Reliability: AY operators under stress", .serialized)
struct AYReliabilityTests {
    static let width = stressSize(100_000)

    @Test("a 100,000-way all whose inputs are fulfilled from many threads has every value in order")
    func wideAll() async throws {
        let inputs = (0..<Self.width).map { _ in AYPromise.pending() }
        let combined = AYPromise.all(inputs.map(\.promise))
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: inputs.count) { index in inputs[index].resolve(index) }
        }
        let outcome = try await AYAdapter.settledValue(combined)
        let values = try #require(outcome as? [PromiseValue])
        #expect(values.map { $0 as? Int } == Array(0..<Self.width))
    }

    @Test("race among 1,000 inputs rejected and fulfilled from many threads fulfils once, with an even input")
    func raceFromManyThreads() async throws {
        for round in 0..<stressSize(100) {
            let inputs = (0..<1_000).map { _ in AYPromise.pending() }
            let winner = AYPromise.race(inputs.map(\.promise))
            DispatchQueue.global().async {
                DispatchQueue.concurrentPerform(iterations: inputs.count) { index in
                    if index.isMultiple(of: 2) {
                        inputs[index].resolve(index)
                    } else {
                        inputs[index].resolve(TestError(index))
                    }
                }
            }
            let value = try await AYAdapter.settledValue(winner)
            // AY's race fulfils with the first fulfilled input, whatever rejected before it.
            guard let index = value as? Int, index.isMultiple(of: 2) else {
                Issue.record("round \(round): \(String(describing: value))")
                return
            }
        }
    }

    @Test("all and race are freed once settled and dropped")
    func operatorsFreed() async throws {
        let weak = Recorder<Weak<AYPromise>>()
        do {
            let inputs = (0..<3).map { AYAdapter.resolved($0) }
            let combined = AYPromise.all(inputs)
            let raced = AYPromise.race(inputs)
            for promise in inputs + [combined, raced] { weak.record(Weak(promise)) }
            _ = try await AYAdapter.settledValue(combined)
            _ = try await AYAdapter.settledValue(raced)
        }
        try await eventually("every operator's promise to be freed") { weak.all.allSatisfy { $0.object == nil } }
    }
}
