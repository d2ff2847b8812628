// The cost method in the benchmark harness Swift library authors use, ordo-one/benchmark
// (package-benchmark): each ``CountedOperation`` becomes one of its benchmarks, with its
// allocation counter, its wall clock and, where the platform counts them, its instruction
// counter. Behind the package trait `PackageBenchmark`, so that nobody who depends on this
// package for a design or for the Promises/A+ suite fetches the harness: without the trait this
// module is empty.
#if PackageBenchmark
    public import Benchmark
    public import PromiseCosts

    /// Registers promise operations as ordo-one/benchmark benchmarks.
    ///
    /// In the harness's layout, a benchmark target is an executable in a folder named
    /// `Benchmarks/`, with the harness's plugin, that defines `benchmarks`:
    ///
    /// ```swift
    /// import Benchmark
    /// import MyPromiseCosts  // the target with the adapter and the budgets
    /// import PromiseCostsBenchmark
    ///
    /// let benchmarks: @Sendable () -> Void = {
    ///     PromiseCostBenchmarks.register(myPromiseOperations)
    /// }
    /// ```
    ///
    /// Each operation runs `units` units per iteration (1,000 by default) and is named after it
    /// with underscores for spaces (`TinyPromise_chain_link`, ``benchmarkName(of:)``). The counted span is the operation's own, between its `start`
    /// and `stop`: what ``PromiseCosts/CountedOperation`` says the allocation runner counts. The
    /// harness reports the whole span per iteration, so the count includes what the operation
    /// does once (the root of a chain, the countdown it waits on) beside `units` times the cost of
    /// one unit; `--scale` divides by `units`.
    ///
    /// The allocations of one unit are exact, and their threshold is too: one allocation more or
    /// less per unit moves an iteration's count by `units`, and ``configuration(units:)``
    /// tolerates `units / 100` either way (10 for 1,000 units), so the check fails on it, an
    /// allocation saved as well as one added, as the project's own budgets do. The tolerance is
    /// for the part done once, which is not exact: an iteration's wait on the last callback may
    /// allocate once, or not, as the threads interleave (a 1,000-link chain counted 8,000 and
    /// 8,001 under load, often enough to move the 90th percentile the check reads). Time is
    /// reported, and has no threshold: it moves by tens of percent between runs.
    public enum PromiseCostBenchmarks {
        /// Registers each of `operations` as one benchmark of `units` units per iteration.
        ///
        /// - Parameters:
        ///   - operations: The operations, for example from
        ///     ``PromiseCosts/CountedOperation/standard(_:budgets:queue:)``.
        ///   - units: Units per iteration; a power of 1,000 from 1 to 1,000,000, so that the
        ///     harness's `--scale` gives the cost of one unit.
        ///   - configuration: The harness's configuration; ``configuration(units:)`` by default.
        /// - Threading: call it from the `benchmarks` closure, as the harness runs it.
        public static func register(
            _ operations: [CountedOperation], units: BenchmarkScalingFactor = .kilo,
            configuration: Benchmark.Configuration? = nil
        ) {
            let configuration = configuration ?? Self.configuration(units: units)
            for operation in operations {
                Benchmark(benchmarkName(of: operation), configuration: configuration) { benchmark in
                    operation.run(
                        units.rawValue, { benchmark.startMeasurement() }, { benchmark.stopMeasurement() })
                }
            }
        }

        /// The benchmark's name for `operation`: its name with underscores for spaces. The harness
        /// writes a thresholds file with underscores for spaces and slashes, and looks for it under
        /// the name as it is, so a name with a space never finds its thresholds (ordo-one/benchmark
        /// issue 301, open in 1.38.1): a name without either is the same both ways.
        public static func benchmarkName(of operation: CountedOperation) -> String {
            operation.name.replacing(" ", with: "_").replacing("/", with: "_")
        }

        /// The configuration ``register(_:units:configuration:)`` uses by default: allocations,
        /// wall clock and instructions (the harness leaves out a metric the platform cannot count,
        /// such as instructions where `perf_event_open` is not supported); an allocation threshold
        /// that any change per unit fails (see ``PromiseCostBenchmarks``); at most 100 iterations
        /// or 1 second.
        public static func configuration(units: BenchmarkScalingFactor = .kilo) -> Benchmark.Configuration {
            Benchmark.Configuration(
                metrics: [.mallocCountTotal, .wallClock, .instructions],
                scalingFactor: units,
                maxDuration: .seconds(1),
                maxIterations: 100,
                thresholds: [
                    .mallocCountTotal: BenchmarkThresholds(
                        relative: BenchmarkThresholds.Relative.none,
                        absolute: [.p90: units.rawValue / 100])
                ])
        }
    }
#endif
