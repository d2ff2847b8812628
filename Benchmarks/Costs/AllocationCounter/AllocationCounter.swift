import CostOperations
import PromiseCostsAllocations

/// Counts the heap allocations of every design's operations, through the cost product's
/// allocation runner (`PromiseCostsAllocations`): SwiftNIO's allocation-counter tests in our
/// terms. `AllocationBudgetTests` runs it and fails when an operation allocates more (or fewer)
/// times than its budget, so a regression fails CI deterministically, where a timing goal could
/// not. `AllocationCounter --check-counter` checks the counter itself.
@main
enum AllocationCounter {
    static func main() {
        AllocationCountingTool.main(CostOperations.all)
    }
}
