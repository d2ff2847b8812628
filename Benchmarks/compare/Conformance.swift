import APlusSuite
import CompareKit
import DesignRegistry
import Foundation

/// One column of the conformance matrix: a name and the adapter that drives its promise type.
///
/// Any `APlusAdapter` makes a column, ours or an outside library's; the designs' columns use
/// `Design.adapter`, the path `swift test` uses.
struct ConformanceSubject {
    let name: String
    let adapter: any APlusAdapter.Type

    init(name: String, adapter: any APlusAdapter.Type) {
        self.name = name
        self.adapter = adapter
    }

    init(_ design: Design) {
        self.init(name: design.rawValue, adapter: design.adapter)
    }
}

/// Runs the Promises/A+ suite's 690 cases (`options: .thenProperties`) and the 12 this port adds
/// (the cases `swift test` runs) for each subject and returns the clause × subject matrix.
///
/// Cases run one at a time, on the main queue, which the tool services: the suite's timing
/// windows (0 < 15 < 50 < 100 < 150 ms) rely on it.
enum ConformanceRun {
    static func matrix(for subjects: [ConformanceSubject], progress: (String) -> Void) throws -> ConformanceMatrix {
        var summaries: [(name: String, summary: APlusSummary)] = []
        var seconds: [String: Double] = [:]
        var failures: [String: [String]] = [:]
        for subject in subjects {
            let cases =
                APlusSuite.cases(for: subject.adapter, options: .thenProperties)
                + APlusSuite.additions(for: subject.adapter)
            progress("conformance: \(subject.name), \(cases.count) cases")
            let started = ContinuousClock.now
            var summary = APlusSummary()
            // One blocking wait per case, not one for the whole run: each is bounded by the
            // tool's wait limit, which a whole run of a broken library could pass.
            for aplusCase in cases {
                let outcome = try blockingAwait("A+ case \(aplusCase.name)") { await aplusCase.run() }
                summary.record(clause: aplusCase.clause, passed: outcome.passed)
                if !outcome.passed { failures[subject.name, default: []].append("\(aplusCase.name): \(outcome)") }
            }
            summaries.append((subject.name, summary))
            seconds[subject.name] = (ContinuousClock.now - started).seconds
        }
        let machine = Provenance.machine()
        let date = String(Provenance.now().prefix(10))
        // Every subject runs the same cases, so the first one's clauses are the rows.
        let clauses = summaries.first?.summary.clauses ?? []
        return ConformanceMatrix(
            designs: subjects.map(\.name),
            rows: clauses.map { clause in
                ConformanceMatrix.Row(
                    clause: clause.clause, cases: clause.run,
                    passed: Dictionary(
                        uniqueKeysWithValues: summaries.map { column in
                            (column.name, column.summary.clauses.first { $0.clause == clause.clause }?.passed ?? 0)
                        }))
            },
            seconds: seconds,
            failures: failures,
            provenance: "\(date) (\(machine.os), \(machine.cores) cores, \(Provenance.toolchain()))"
        )
    }
}
