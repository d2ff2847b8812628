import APlusSuite
import APlusSuiteTesting
import DesignRegistry
import Foundation
import TestSupport
import Testing

/// The Promises/A+ cases for the registered designs.
enum DesignCase {
    /// Every registered design, or the designs named in the environment variable `APLUS_DESIGNS`
    /// (comma-separated, e.g. `APLUS_DESIGNS=AY,QX`), a shortcut while working on one design. CI
    /// never sets it.
    static var selectedDesigns: [Design] {
        guard let names = ProcessInfo.processInfo.environment["APLUS_DESIGNS"] else { return Design.allCases }
        let wanted = Set(names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() })
        return Design.allCases.filter { wanted.contains($0.rawValue.uppercased()) }
    }
}

/// The Promises/A+ suite against every registered design, through the same public runner an
/// outside library uses (`APlusSuite.expectConformance(of:clauses:title:)` with the design's
/// adapter, `Design.adapter`): one test per design, which runs the 690 cases one after the other, reports
/// each failing case by its full name and prints a summary line per clause.
///
/// One test per design rather than one per case keeps a passing `swift test` short (a
/// parameterised test prints two lines per argument: 5,000 lines for the suite).
///
/// The cases rely on the relative timing of main-queue timers (0 < 15 < 50 < 100 < 150 ms), so
/// each design runs its cases one at a time; the designs run side by side, as the other suites
/// do (a case spends most of its time waiting for its timers: one after the other, the four
/// designs took 113 s of a 116 s `swift test`). Timers and callbacks on the one main queue keep
/// their order however busy it is.
@Suite("Promises/A+")
struct APlusConformanceTests {
    @Test("conformance: the 690 cases", arguments: DesignCase.selectedDesigns)
    func conformance(_ design: Design) async throws {
        // A case waits for the main queue, which every test of the run shares: the first cases,
        // which run while every other test starts, took up to 16 s under load.
        try await APlusSuite.expectConformance(
            of: design.adapter, clauses: APlusSuite.clauses, options: .thenProperties,
            title: "Promises/A+ \(design.rawValue)",
            timeout: defaultTestTimeout)
    }

    @Test("the cases for several threads", arguments: DesignCase.selectedDesigns)
    func threads(_ design: Design) async throws {
        try await APlusSuite.expectConformance(
            of: design.adapter, clauses: [APlusSuite.threadsClause],
            title: "Promises/A+ threads \(design.rawValue)", timeout: defaultTestTimeout)
    }

    @Test("the cases this port adds to the JS suite", arguments: DesignCase.selectedDesigns)
    func additions(_ design: Design) async throws {
        try await APlusSuite.expectConformance(
            of: design.adapter, clauses: [APlusSuite.additionsClause],
            title: "Promises/A+ additions \(design.rawValue)", timeout: defaultTestTimeout)
    }
}
