import Testing

// Testable: the count is the module's own, not API (debug builds, which every test run uses, allow it).
@testable import BatchedPromises

/// The rule by which `HeapTrimming` waits for the module to go quiet before it trims. A trim
/// holds the allocator's lock while it walks the heap, so every allocation in the process waits
/// for it; one made while a new chain was being built after a drop stalled a queue by up to
/// 3.7 ms. So quiet means that the module neither frees nor makes objects, and the objects made
/// are counted, on the same sample of one in 1,024, as the objects freed are.
///
/// Whether a trim comes while promises are made depends on time (a starved process looks quiet),
/// so this checks the count the rule reads, which does not.
@Suite("Batched: what the heap trim counts as activity")
struct HeapTrimmingTests {
    @Test("promises made, and none freed, count as activity: about one in 1,024 of them")
    func madeObjectsCount() {
        let before = HeapTrimming.made.load(ordering: .relaxed)
        // 100,000 objects, of which about 98 are sampled; fewer than 50 has a chance below 1 in
        // 10^8 (a binomial tail).
        let kept = (0..<100_000).map { Promise<Int, Never>(value: $0) }
        let after = HeapTrimming.made.load(ordering: .relaxed)
        withExtendedLifetime(kept) {}
        // Other tests make promises meanwhile, which only adds to the count.
        #expect(after - before >= 50, "100,000 promises made moved the count from \(before) to \(after)")
    }
}
