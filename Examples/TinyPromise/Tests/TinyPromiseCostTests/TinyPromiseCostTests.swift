import PromiseCostsTesting
import Testing

// snippet: costs-test
@Test("TinyPromise allocates exactly its budgets")
func allocationsMeetTheirBudgets() async throws {
    try await AllocationBudgets.expectMet(byTool: "TinyPromiseAllocations")
}
// end-snippet
