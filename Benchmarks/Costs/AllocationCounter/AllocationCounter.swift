import AllocationCounting
import CostOperations
import Foundation

/// Counts the heap allocations of each design's basic operations, exactly, and the bytes they
/// request, and prints them as JSON lines:
/// `{"design":"FBL","operation":"chain link","allocations":7,"measured":7.001,"bytes":240}`.
///
/// SwiftNIO's allocation-counter tests in our terms: `AllocationBudgetTests` runs this tool and
/// fails when an operation allocates more (or fewer) times than its budget, so a regression fails
/// CI deterministically, where a timing goal could not. Each operation is run at two sizes and the
/// difference is divided by the difference of the sizes, so one-time costs (a queue's first
/// block, a thread's first dispatch, the caches of the Swift runtime) cancel out.
///
/// It is its own executable because counting (the `AllocationCounting` target) replaces `malloc`
/// for the whole process: linked into the test bundle it would count every test running in
/// parallel, and clash with the sanitizers' allocators.
///
/// `AllocationCounter --thread-exit-check` checks the counter itself instead: threads that exit
/// while counting is on, and free memory in a thread-exit destructor, must leave the heap intact
/// (``ThreadExitCheck``).
@main
enum AllocationCounter {
    static func main() {
        guard allocation_counting_is_available() else {
            FileHandle.standardError.write(
                Data("AllocationCounter: this platform's allocator cannot be counted\n".utf8))
            exit(2)
        }
        if CommandLine.arguments.dropFirst().first == "--thread-exit-check" {
            exit(ThreadExitCheck.run() ? 0 : 1)
        }
        // Those with an allocation budget: the designs' (raw GCD and the floor prototypes are compared
        // with, not budgeted).
        for measurement in CostOperations.all where measurement.budget.allocations != nil {
            let perUnit = perUnit(measurement.run)
            // Rounded: a dispatch continuation cache refilled, or an array doubling, inside one of
            // the two runs shows as a few thousandths; a real extra allocation as a whole one.
            let allocations = Int(perUnit.allocations.rounded())
            let bytes = Int(perUnit.bytes.rounded())
            print(
                #"{"design":"\#(measurement.design)","operation":"\#(measurement.operation)","allocations":\#(allocations),"measured":\#(perUnit.allocations),"bytes":\#(bytes)}"#
            )
        }
    }

    /// Allocations and requested bytes per unit of `run(units)`, from runs of 1,000 and 2,000
    /// units after a warm-up; each size the least of three runs.
    ///
    /// The hook counts every thread's allocations, and work left over from an earlier operation
    /// (a queue's thread winding down) can allocate inside a counting window. That only ever adds,
    /// so the least of three runs is the operation's own count (a CI run under load once measured
    /// FBL's `all` input as 2.49 allocations against its 3, from one run per size).
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
