import APlusSuite
import APlusSuiteTesting
import Testing

// snippet: aplus-testing
@Suite("TinyPromise", .serialized)
struct TinyPromiseAPlusTests {
    /// All 690 cases of Promises/A+ 1.1 (the 648 and those whose thenables have a `then`
    /// property) and the 12 the suite adds; each failing case is recorded under its full name,
    /// and one summary line is printed.
    @Test("Promises/A+")
    func promisesAPlus() async throws {
        let summary = try await APlusSuite.expectConformance(
            of: TinyAdapter.self, options: .thenProperties, title: "Promises/A+ TinyPromise")
        #expect(summary.run == 702)
    }
}
// end-snippet
