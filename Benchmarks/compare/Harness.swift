import CompareKit
import Foundation

/// What one `compare` run measures.
struct RunPlan {
    var scenarios: [Scenario]
    var contenders: [any Contender]
    var repetitions: Int
    var warmups: Int
    var quick: Bool
    /// Which process run this is: each shuffles the contenders in an order of its own.
    var processRun: Int
}

/// Runs every scenario × size × contender cell: checks the result, warms up, counts allocations
/// once, then times the repetitions interleaved across contenders, in a new seeded order each
/// repetition.
final class Harness {
    private let plan: RunPlan
    private let started = ContinuousClock.now
    private let progress = FileHandle.standardError

    init(plan: RunPlan) { self.plan = plan }

    func measureScenarios() throws -> [ScenarioResult] {
        var results: [ScenarioResult] = []
        for (index, scenario) in plan.scenarios.enumerated() {
            // A contender that sits the scenario out says so at its first warm-up, and is not asked again.
            var contenders = plan.contenders
            var sizes: [SizeResult] = []
            for size in scenario.sizes(quick: plan.quick) {
                let (result, running) = try measure(scenario, size: size, contenders: contenders, number: index + 1)
                sizes.append(result)
                contenders = running
            }
            results.append(
                ScenarioResult(
                    id: scenario.rawValue,
                    title: scenario.title,
                    unit: scenario.unit,
                    summary: scenario.summary,
                    isCurve: scenario.isCurve,
                    headlineSize: scenario.headlineSize(quick: plan.quick),
                    sizes: sizes
                ))
        }
        return results
    }

    /// Bytes retained and allocations per pending promise with one `then`, per contender.
    func measureMemory() throws -> [MemoryResult] {
        let count = plan.quick ? 1_000 : 10_000
        guard AllocationMeter.isAvailable else { return [] }
        return try plan.contenders.map { contender in
            report("memory: \(contender.info.name), \(Format.count(count)) pending promises with one then")
            let meter = AllocationMeter()
            let settle = try contender.holdPending(count: count, meter: meter)
            try settle()
            return MemoryResult(
                contender: contender.info.name,
                // A contender that allocates nothing can free a few bytes of earlier memory
                // inside the window (a background thread's buffer); that is not negative retention.
                bytesPerPending: Double(max(0, meter.bytesRetained)) / Double(count),
                allocationsPerPending: Double(meter.allocations) / Double(count)
            )
        }
    }

    private struct Sample {
        var total: Double
        var build: Double
        var fire: Double
        var metrics: [String: Double]
    }

    /// One size of `scenario`: its result, and the contenders that ran it (the others sit it out).
    private func measure(
        _ scenario: Scenario, size: Int, contenders candidates: [any Contender], number: Int
    ) throws -> (SizeResult, [any Contender]) {
        let inputs = Inputs(size: size)
        let repeats = scenario.repeats(size: size, quick: plan.quick)
        let units = scenario.units(size: size) * repeats
        let label = "[\(number)/\(plan.scenarios.count)] \(scenario.rawValue) N=\(Format.count(size))"

        // The untimed warm-up runs first; it checks the result (every run does) and counts the
        // allocations, so a 100,000-link cell costs one extra run, not two.
        var allocations: [String: Double] = [:]
        var contenders: [any Contender] = []
        for contender in candidates {
            report("\(label): \(contender.info.name) check, warm-up and allocation count")
            let meter = AllocationMeter()
            do {
                for _ in 0..<plan.warmups {
                    try meter.measure { _ = try runOnce(contender, scenario, inputs, repeats: repeats) }
                }
            } catch is SitsOut {
                continue
            }
            contenders.append(contender)
            if AllocationMeter.isAvailable {
                allocations[contender.info.name] = Double(meter.allocations) / Double(units * plan.warmups)
            }
        }
        var samples: [String: [Sample]] = [:]
        // Each repetition runs the contenders in another order (seeded, so a run is repeatable):
        // what a contender leaves behind that `Quiet` cannot see (heap state, caches) slows the
        // contender after it. In a fixed order that was always the same neighbour, in every
        // sample, and moved its median (FBL's single: 4.3x raw GCD behind Combine, 1.5-2.6x
        // elsewhere); shuffled, it lands on each contender in a few samples, which the median
        // leaves out.
        var order = SplitMix64(seed: Bootstrap.seed(String(size), String(number), String(plan.processRun)))
        for repetition in 0..<plan.repetitions {
            report("\(label): repetition \(repetition + 1)/\(plan.repetitions)")
            for contender in contenders.shuffled(using: &order) {
                Quiet.wait()
                samples[contender.info.name, default: []].append(
                    try runOnce(contender, scenario, inputs, repeats: repeats))
            }
        }
        let twoPhase = scenario == .chain || scenario == .errors
        let cells = contenders.map { contender -> Cell in
            let name = contender.info.name
            let own = samples[name] ?? []
            return Cell(
                contender: name,
                runs: [own.map { $0.total / Double(units) }],
                buildSamples: twoPhase ? own.map { $0.build / Double(units) } : nil,
                fireSamples: twoPhase ? own.map { $0.fire / Double(units) } : nil,
                allocationsPerUnit: allocations[name],
                metrics: own.last.flatMap { $0.metrics.isEmpty ? nil : $0.metrics }
            )
        }
        return (SizeResult(size: size, units: units, cells: cells), contenders)
    }

    /// Runs the scenario `repeats` times and checks every result.
    private func runOnce(
        _ contender: any Contender, _ scenario: Scenario, _ inputs: Inputs, repeats: Int
    ) throws
        -> Sample
    {
        var sample = Sample(total: 0, build: 0, fire: 0, metrics: [:])
        let expected = scenario.expectedChecksum(size: inputs.size)
        for _ in 0..<repeats {
            let clock = PhaseClock()
            let checksum = try scenario.run(on: contender, inputs, clock)
            let phases = clock.phases(until: .now)
            guard checksum == expected else {
                throw BenchmarkError.wrongResult(
                    contender: contender.info.name,
                    scenario: scenario.rawValue,
                    size: inputs.size,
                    expected: expected,
                    got: checksum
                )
            }
            sample.build += phases.build
            sample.fire += phases.fire
            sample.total += phases.build + phases.fire
            sample.metrics = phases.metrics
        }
        return sample
    }

    private func report(_ message: String) {
        let elapsed = String(format: "%6.1f s", (ContinuousClock.now - started).seconds)
        progress.write(Data("[\(elapsed)] \(message)\n".utf8))
    }
}

/// Waits until the work a contender left behind (promises freed from a queue, event-loop and
/// dispatch threads finishing) has stopped, so that it is not timed as the next contender's.
///
/// Without it, the interleaved repetitions charged one contender's tail to the next: in the runs
/// before and after it, GCD's fan-out at N = 10 went from 5.7 to 3.9 µs per observer and Swift
/// concurrency's from 7.9 to 3.6 µs (Benchmarks/README.md).
enum Quiet {
    /// The process's CPU time (user and system, all threads), in seconds.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Waits in 5 ms windows until the process used under 10 % of one core in one (this thread
    /// sleeps, so that is background work), for at most one second.
    static func wait() {
        let window = 0.005
        for _ in 0..<200 {
            let before = processCPUSeconds()
            Thread.sleep(forTimeInterval: window)
            if processCPUSeconds() - before < window / 10 { return }
        }
    }
}
