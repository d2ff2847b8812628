import Benchmark
import PromiseCostsBenchmark
import TinyPromiseCosts

// snippet: costs-harness
/// TinyPromise's standard operations as benchmarks: 1,000 units per iteration, allocations checked
/// against `Thresholds/`, time and (where the platform counts them) instructions reported.
let benchmarks: @Sendable () -> Void = {
    PromiseCostBenchmarks.register(tinyPromiseOperations)
}
// end-snippet
