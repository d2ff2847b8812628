import APlusSuite
import DesignRegistry
import Foundation
import PromiseInterface
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

    /// Opens the existential so the suite is built for the design's concrete promise type.
    static func cases<P: APlusPromise>(for type: P.Type) -> [APlusCase] {
        APlusSuite.cases(for: type)
    }

    /// The same for the cases this port adds.
    static func additions<P: APlusPromise>(for type: P.Type) -> [APlusCase] {
        APlusSuite.additions(for: type)
    }
}

/// The Promises/A+ suite against every registered design: one test per design, which runs the
/// 648 cases one after the other, reports each failing case by its full name
/// (`FBL 2.3.3: … > via return from a fulfilled promise: …`) and prints a summary per clause.
///
/// One test per design rather than one per case keeps a passing `swift test` short (a
/// parameterised test prints two lines per argument: 5,000 lines for the suite).
///
/// The cases rely on the relative timing of main-queue timers (0 < 15 < 50 < 100 < 150 ms), so
/// they run one at a time, and the designs one after the other.
@Suite("Promises/A+", .serialized)
struct APlusConformanceTests {
    @Test("conformance: the 648 cases", arguments: DesignCase.selectedDesigns)
    func conformance(_ design: Design) async {
        await Self.run(DesignCase.cases(for: design.promiseType), of: design, title: "Promises/A+")
    }

    @Test("the cases this port adds to the JS suite", arguments: DesignCase.selectedDesigns)
    func additions(_ design: Design) async {
        await Self.run(DesignCase.additions(for: design.promiseType), of: design, title: "Promises/A+ additions")
    }

    /// Runs `cases` one after the other, records each failing case by its full name and prints
    /// the summary line.
    static func run(_ cases: [APlusCase], of design: Design, title: String) async {
        var summary = ClauseSummary()
        for aplusCase in cases {
            // A case waits for the main queue, which every test of the run shares: the first
            // cases, which run while every other test starts, took up to 16 s under load.
            let outcome = await aplusCase.run(timeout: defaultTestTimeout)
            summary.record(clause: aplusCase.clause, passed: outcome.passed)
            switch outcome {
            case .passed:
                break
            case .failed(let failures):
                Issue.record("\(design.rawValue) \(aplusCase.name): \(failures.joined(separator: "; "))")
            case .timedOut(let failures):
                Issue.record("\(design.rawValue) \(aplusCase.name): timed out. \(failures.joined(separator: "; "))")
            }
        }
        print(summary.line(title: title, design: design.rawValue))
    }
}

/// Passed and run cases per clause, for the one line a passing run prints per design.
struct ClauseSummary {
    private var counts: [String: (passed: Int, run: Int)] = [:]

    mutating func record(clause: String, passed: Bool) {
        let count = counts[clause, default: (0, 0)]
        counts[clause] = (count.passed + (passed ? 1 : 0), count.run + 1)
    }

    /// `Promises/A+ FBL: 648 of 648 passed (2.1.2 6/6, 2.1.3 6/6, …)`; a clause with a failure
    /// is marked `FAILED`.
    func line(title: String, design: String) -> String {
        let clauses = counts.keys.sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        let perClause = clauses.map { clause in
            let count = counts[clause]!
            return "\(clause) \(count.passed)/\(count.run)" + (count.passed == count.run ? "" : " FAILED")
        }
        let passed = counts.values.reduce(0) { $0 + $1.passed }
        let run = counts.values.reduce(0) { $0 + $1.run }
        return "\(title) \(design): \(passed) of \(run) passed (\(perClause.joined(separator: ", ")))"
    }
}
