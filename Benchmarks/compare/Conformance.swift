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

/// Runs the Promises/A+ suite's 648 cases and the 12 this port adds (the cases `swift test`
/// runs) for each subject and returns the clause × subject matrix.
///
/// Cases run one at a time, on the main queue, which the tool services: the suite's timing
/// windows (0 < 15 < 50 < 100 < 150 ms) rely on it.
enum ConformanceRun {
    static func matrix(for subjects: [ConformanceSubject], progress: (String) -> Void) throws -> ConformanceMatrix {
        var clauses: [String] = []
        var caseCounts: [String: Int] = [:]
        var passed: [String: [String: Int]] = [:]
        var seconds: [String: Double] = [:]
        var failures: [String: [String]] = [:]
        for subject in subjects {
            let cases = APlusSuite.cases(for: subject.adapter) + APlusSuite.additions(for: subject.adapter)
            progress("conformance: \(subject.name), \(cases.count) cases")
            let started = ContinuousClock.now
            for aplusCase in cases {
                let clause = aplusCase.clause
                if caseCounts[clause] == nil { clauses.append(clause) }
                if subject.name == subjects[0].name { caseCounts[clause, default: 0] += 1 }
                let outcome = try blockingAwait("A+ case \(aplusCase.name)") { await aplusCase.run() }
                if outcome.passed {
                    passed[clause, default: [:]][subject.name, default: 0] += 1
                } else {
                    failures[subject.name, default: []].append("\(aplusCase.name): \(outcome)")
                }
            }
            seconds[subject.name] = (ContinuousClock.now - started).seconds
        }
        let machine = Provenance.machine()
        let date = String(Provenance.now().prefix(10))
        return ConformanceMatrix(
            designs: subjects.map(\.name),
            rows: clauses.map {
                ConformanceMatrix.Row(clause: $0, cases: caseCounts[$0] ?? 0, passed: passed[$0] ?? [:])
            },
            seconds: seconds,
            failures: failures,
            provenance: "\(date) (\(machine.os), \(machine.cores) cores, \(Provenance.toolchain()))"
        )
    }
}
