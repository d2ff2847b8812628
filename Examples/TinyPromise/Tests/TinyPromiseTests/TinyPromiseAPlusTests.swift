import APlusSuite
import APlusSuiteTesting
import Testing

// snippet: aplus-testing
@Suite("TinyPromise", .serialized)
struct TinyPromiseAPlusTests {
    /// All 690 cases of Promises/A+ 1.1 (`.thenProperties` adds the 42 whose thenables have a
    /// `then` property, as JavaScript's do), the 18 the suite adds and the 6 for several threads;
    /// each failing case is recorded under its full name, and one summary line is printed.
    @Test("Promises/A+")
    func promisesAPlus() async throws {
        let summary = try await APlusSuite.expectConformance(
            of: TinyAdapter.self, options: .thenProperties, title: "Promises/A+ TinyPromise")
        #expect(summary.run == 714)
    }
}
// end-snippet
