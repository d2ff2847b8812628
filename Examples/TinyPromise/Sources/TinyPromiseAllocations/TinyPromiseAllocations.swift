import PromiseCostsAllocations
import TinyPromiseCosts

// snippet: costs-allocation-tool
/// Counts TinyPromise's allocations per operation: what `swift test` runs and checks.
@main
enum TinyPromiseAllocations {
    static func main() { AllocationCountingTool.main(tinyPromiseOperations) }
}
// end-snippet
