import APlusSuite
import CompareKit
import DesignRegistry
import Foundation

/// Runs the Promises/A+ suite's 648 cases (the same ones `swift test` runs; not the 12 the port
/// adds, which `swift test` runs apart) for every design and returns the clause × design matrix.
///
/// Cases run one at a time, on the main queue, which the tool services: the suite's timing
/// windows (0 < 15 < 50 < 100 < 150 ms) rely on it.
enum ConformanceRun {
    static func matrix(for designs: [Design], progress: (String) -> Void) throws -> ConformanceMatrix {
        var clauses: [String] = []
        var caseCounts: [String: Int] = [:]
        var passed: [String: [String: Int]] = [:]
        var seconds: [String: Double] = [:]
        var failures: [String: [String]] = [:]
        for design in designs {
            let cases = APlusSuite.cases(for: design.adapter)
            progress("conformance: \(design.rawValue), \(cases.count) cases")
            let started = ContinuousClock.now
            for aplusCase in cases {
                let clause = aplusCase.clause
                if caseCounts[clause] == nil { clauses.append(clause) }
                if design == designs[0] { caseCounts[clause, default: 0] += 1 }
                let outcome = try blockingAwait("A+ case \(aplusCase.name)") { await aplusCase.run() }
                if outcome.passed {
                    passed[clause, default: [:]][design.rawValue, default: 0] += 1
                } else {
                    failures[design.rawValue, default: []].append("\(aplusCase.name): \(outcome)")
                }
            }
            seconds[design.rawValue] = (ContinuousClock.now - started).seconds
        }
        let machine = Provenance.machine()
        let date = String(Provenance.now().prefix(10))
        return ConformanceMatrix(
            designs: designs.map(\.rawValue),
            rows: clauses.map {
                ConformanceMatrix.Row(clause: $0, cases: caseCounts[$0] ?? 0, passed: passed[$0] ?? [:])
            },
            seconds: seconds,
            failures: failures,
            provenance: "\(date) (\(machine.os), \(machine.cores) cores, \(Provenance.toolchain()))"
        )
    }
}
