import AllocationCounting
import Foundation
public import PromiseCosts

/// The allocation runner: counts the heap allocations of each operation, exactly, and the bytes
/// they request, and prints one JSON line per operation (``PromiseCosts/AllocationCount``).
///
/// Call it from the `main` of an executable target of its own, which depends on this product:
///
/// ```swift
/// import MyPromiseCosts  // the target with the adapter and the budgets
/// import PromiseCostsAllocations
///
/// @main
/// enum MyPromiseAllocations {
///     static func main() { AllocationCountingTool.main(MyPromiseCosts.operations) }
/// }
/// ```
///
/// It must be its own executable because counting replaces the C allocator (`malloc` and its
/// family) for the whole process: linked into a test bundle, it would count every test running
/// in parallel, and clash with the sanitizers' allocators. A test runs it and checks the budgets
/// (`PromiseCostsTesting`).
///
/// Each operation runs at 1,000 and 2,000 units after a warm-up, each size the least of three
/// runs, and the difference is divided by the difference of the sizes, so one-time costs cancel.
/// The least, because the counter counts every thread's allocations and work left over from an
/// earlier operation (a queue's thread winding down) only ever adds.
///
/// Arguments: `--only <text>` (repeatable) counts only the operations whose name contains one of
/// them. `--check-counter` checks the counter itself instead (``ThreadExitCheck``).
///
/// Where it cannot count (not Linux with glibc, or a sanitizer's allocator in the process), it
/// says so on standard error and exits with status 2, having counted nothing.
public enum AllocationCountingTool {
    /// Runs the tool over `measurements` with the process's arguments, and exits.
    public static func main(_ measurements: [CountedOperation]) -> Never {
        guard allocation_counting_is_available() else {
            FileHandle.standardError.write(
                Data(
                    ("\(CommandLine.arguments[0]): cannot count allocations here: the counter replaces glibc's "
                        + "allocator, and this process has another (not Linux with glibc, or a sanitizer's)\n").utf8))
            exit(AllocationCount.cannotCountStatus)
        }
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--check-counter"] {
            exit(ThreadExitCheck.run() ? 0 : 1)
        }
        var only: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument == "--only", let text = rest.popFirst() else {
                FileHandle.standardError.write(
                    Data(
                        "\(CommandLine.arguments[0]): unknown argument '\(argument)'; takes --only <text> (repeatable) or --check-counter\n"
                            .utf8))
                exit(64)
            }
            only.append(text)
        }
        let wanted = measurements.filter { measurement in
            only.isEmpty || only.contains { measurement.name.contains($0) }
        }
        guard !wanted.isEmpty else {
            FileHandle.standardError.write(Data("\(CommandLine.arguments[0]): no operation matches \(only)\n".utf8))
            exit(64)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for measurement in wanted {
            let perUnit = perUnit(measurement.run)
            let count = AllocationCount(
                library: measurement.library, operation: measurement.operation,
                allocations: Int(perUnit.allocations.rounded()), measured: perUnit.allocations,
                bytes: Int(perUnit.bytes.rounded()), allocationBudget: measurement.budget.allocations,
                pendingByteBudget: measurement.budget.pendingBytes)
            print(String(decoding: try! encoder.encode(count), as: UTF8.self))
        }
        exit(0)
    }

    /// Allocations and requested bytes per unit of `run(units)`, from runs of 1,000 and 2,000
    /// units after a warm-up; each size the least of three runs.
    static func perUnit(_ run: (Int, () -> Void, () -> Void) -> Void) -> (allocations: Double, bytes: Double) {
        let small = 1_000
        let large = 2_000
        _ = count(small, run)
        let atSmall = least(of: 3) { count(small, run) }
        let atLarge = least(of: 3) { count(large, run) }
        let units = Double(large - small)
        return (
            Double(atLarge.allocations - atSmall.allocations) / units,
            Double(atLarge.bytes - atSmall.bytes) / units
        )
    }

    /// The smallest allocation and byte counts of `runs` measurements.
    static func least(of runs: Int, _ measure: () -> (allocations: Int, bytes: Int)) -> (allocations: Int, bytes: Int) {
        (0..<runs).map { _ in measure() }.reduce((Int.max, Int.max)) { (min($0.0, $1.0), min($0.1, $1.1)) }
    }

    /// The allocations `run` makes between its `start` and `stop` calls, and the bytes they
    /// request.
    static func count(_ units: Int, _ run: (Int, () -> Void, () -> Void) -> Void) -> (allocations: Int, bytes: Int) {
        var total = (allocations: 0, bytes: 0)
        run(
            units,
            { allocation_counting_start() },
            {
                let counts = allocation_counting_stop()
                total = (Int(counts.allocations), Int(counts.requestedBytes))
            }
        )
        return total
    }
}
