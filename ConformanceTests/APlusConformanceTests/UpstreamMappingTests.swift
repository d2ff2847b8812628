import APlusSuite
import Foundation
import Testing

/// `Reports/aplus-upstream.tsv` accounts for every test promises-aplus-tests 2.1.2 generates: a
/// case here, merged into a named case, or not expressible in Swift, each with why; the table in
/// `Reports/conformance.md` sums it per clause.
@Suite("Promises/A+ upstream mapping")
struct UpstreamMappingTests {
    static let reports = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Reports")

    /// The tests promises-aplus-tests 2.1.2 generates per clause (one file per clause), 872 in all.
    static let upstreamCounts: KeyValuePairs<String, Int> = [
        "2.1.2": 6, "2.1.3": 6, "2.2.1": 20, "2.2.2": 11, "2.2.3": 11, "2.2.4": 16, "2.2.5": 4, "2.2.6": 30,
        "2.2.7": 104, "2.3.1": 2, "2.3.2": 10, "2.3.3": 610, "2.3.4": 42,
    ]

    enum Disposition: String, CaseIterable {
        case `case`
        case merged
        case notExpressible = "not expressible"
    }

    struct Row {
        let upstream: String
        let disposition: Disposition?
        let caseName: String
        let why: String

        var clause: String { UpstreamMappingTests.clause(of: upstream) }
    }

    /// A test's clause: the first three parts of its leading number (`2.1.2.1: …` is in 2.1.2).
    static func clause(of name: String) -> String {
        name.prefix { $0.isNumber || $0 == "." }.split(separator: ".").prefix(3).joined(separator: ".")
    }

    static func rows() throws -> [Row] {
        let text = try String(contentsOf: reports.appendingPathComponent("aplus-upstream.tsv"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        #expect(lines.removeFirst() == "upstream\tdisposition\tcase\twhy")
        return lines.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            #expect(fields.count == 4, "not four columns: \(line)")
            let field = { (index: Int) in index < fields.count ? fields[index] : "" }
            return Row(
                upstream: field(0), disposition: Disposition(rawValue: field(1)), caseName: field(2), why: field(3))
        }
    }

    /// The suite's case names: the 648, and the 690 with `thenProperties`.
    static let defaultNames = Set(APlusSuite.cases(for: MutantAdapter<Correct>.self).map(\.name))
    static let allNames = APlusSuite.cases(for: MutantAdapter<Correct>.self, options: .thenProperties).map(\.name)

    @Test("872 distinct upstream tests, as many per clause as the JS suite generates")
    func upstreamTests() throws {
        let rows = try Self.rows()
        #expect(rows.count == 872)
        #expect(Set(rows.map(\.upstream)).count == rows.count, "an upstream test is listed twice")
        let counted = Dictionary(grouping: rows, by: \.clause).mapValues(\.count)
        for (clause, count) in Self.upstreamCounts {
            #expect(counted[clause] == count, "\(clause): \(counted[clause] ?? 0) rows, the JS suite has \(count)")
        }
        #expect(Set(counted.keys) == Set(Self.upstreamCounts.map(\.key)))
    }

    @Test("every case here stands for exactly one upstream test; merged and left-out tests say why")
    func dispositions() throws {
        let rows = try Self.rows()
        let invalid = rows.filter { $0.disposition == nil }.map(\.upstream)
        #expect(invalid.isEmpty, "not case, merged or not expressible: \(invalid.prefix(3))")
        let cases = rows.filter { $0.disposition == .case }.map(\.caseName)
        #expect(cases.sorted() == Self.allNames.sorted(), "the case rows are not the suite's 690 cases")
        for row in rows where row.disposition == .merged {
            #expect(Self.allNames.contains(row.caseName), "merged into no case of the suite: \(row.upstream)")
            #expect(row.clause == Self.clause(of: row.caseName), "merged across clauses: \(row.upstream)")
            #expect(!row.why.isEmpty, "merged without a reason: \(row.upstream)")
        }
        for row in rows where row.disposition == .notExpressible {
            #expect(
                row.caseName.isEmpty && !row.why.isEmpty, "not expressible needs a reason and no case: \(row.upstream)")
        }
        for row in rows where row.disposition == .case && row.caseName != row.upstream {
            #expect(!row.why.isEmpty, "a case under another name needs a reason: \(row.upstream)")
        }
    }

    /// The per-clause table as conformance.md shows it.
    static func table(_ rows: [Row]) -> String {
        // The types are spelled out: inferred, this function took the type checker 4 s.
        var lines: [String] = [
            "| Clause | Upstream tests | Cases here | of them with `thenProperties` | Merged into a case | Not expressible |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        var totals: [Int] = [0, 0, 0, 0, 0]
        for (clause, _) in Self.upstreamCounts {
            let ofClause: [Row] = rows.filter { $0.clause == clause }
            let cases: [Row] = ofClause.filter { $0.disposition == .case }
            let withThenProperties: Int = cases.filter { !Self.defaultNames.contains($0.caseName) }.count
            let merged: Int = ofClause.filter { $0.disposition == .merged }.count
            let notExpressible: Int = ofClause.filter { $0.disposition == .notExpressible }.count
            let counts: [Int] = [ofClause.count, cases.count, withThenProperties, merged, notExpressible]
            for index in totals.indices { totals[index] += counts[index] }
            let cells: [String] = counts.map { String($0) }
            lines.append("| \(clause) | \(cells.joined(separator: " | ")) |")
        }
        let totalCells: [String] = totals.map { "**\($0)**" }
        lines.append("| **Total** | \(totalCells.joined(separator: " | ")) |")
        return lines.joined(separator: "\n")
    }

    @Test("conformance.md's table per clause is the mapping's")
    func reportTable() throws {
        let report = try String(contentsOf: Self.reports.appendingPathComponent("conformance.md"), encoding: .utf8)
        let marker = "<!-- upstream-mapping-table -->\n"
        let start = try #require(report.range(of: marker)?.upperBound, "conformance.md has no \(marker)")
        let shown = String(report[start...]).components(separatedBy: "\n\n")[0]
        #expect(shown == Self.table(try Self.rows()))
    }
}
