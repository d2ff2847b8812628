import APlusSuite
import DesignRegistry
import Foundation
import Testing

/// The port holds exactly the cases a faithful Swift port of the JS suite contains: 648 whose
/// thenables have a `then` method, and 690 with `Options.thenProperties`.
@Suite("Promises/A+ case list")
struct CaseListTests {
    /// A fixture of case names, one per line.
    static func names(in file: String) -> [String] {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/\(file)")
        let text = (try? String(contentsOf: fixture, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// The cases by default (648).
    static let tierANames = names(in: "swift-cases-tierA.txt")
    /// The cases with `Options.thenProperties` (690).
    static let tierBNames = names(in: "swift-cases-tierB.txt")

    @Test("the fixtures list 648 and 690 distinct cases, the 648 among the 690")
    func fixtureIsComplete() {
        #expect(Self.tierANames.count == 648)
        #expect(Set(Self.tierANames).count == 648)
        #expect(Self.tierBNames.count == 690)
        #expect(Set(Self.tierBNames).count == 690)
        #expect(Set(Self.tierANames).isSubset(of: Self.tierBNames))
    }

    @Test("every design runs exactly the listed cases, with and without thenProperties", arguments: Design.allCases)
    func casesMatchTierA(_ design: Design) {
        for (options, expected) in [(APlusSuite.Options(), Self.tierANames), (.thenProperties, Self.tierBNames)] {
            let names = APlusSuite.cases(for: design.adapter, options: options).map(\.name)
            #expect(names.count == expected.count)
            let missing = Set(expected).subtracting(names)
            let extra = Set(names).subtracting(expected)
            #expect(missing.isEmpty, "missing: \(missing.sorted().prefix(5))")
            #expect(extra.isEmpty, "not in the list: \(extra.sorted().prefix(5))")
        }
    }

    @Test("thenProperties keeps the JS suite's order")
    func thenPropertiesOrder() {
        let names = APlusSuite.cases(for: MutantAdapter<Correct>.self, options: .thenProperties).map(\.name)
        #expect(names == Self.tierBNames)
    }

    @Test(
        "the cases this port adds: 18, named apart from the catalog, reported as Additions", arguments: Design.allCases)
    func additions(_ design: Design) {
        let additions = APlusSuite.additions(for: design.adapter)
        let names = additions.map(\.name)
        #expect(names.count == 18)
        #expect(Set(names).count == 18)
        #expect(Set(names).isDisjoint(with: Self.tierANames))
        #expect(additions.allSatisfy { $0.clause == "Additions" })
    }

    @Test("the cases for several threads: 6, named apart from the rest, reported as Threads, selected by name")
    func threads() throws {
        let adapter = Design.fbl.adapter
        let threads = APlusSuite.threadCases(for: adapter)
        let names = threads.map(\.name)
        #expect(names.count == 6 && Set(names).count == 6)
        #expect(Set(names).isDisjoint(with: Self.tierBNames))
        #expect(Set(names).isDisjoint(with: APlusSuite.additions(for: adapter).map(\.name)))
        #expect(threads.allSatisfy { $0.clause == APlusSuite.threadsClause })
        #expect(try APlusSuite.cases(for: adapter, clauses: [APlusSuite.threadsClause]).map(\.name) == names)
    }

    @Test("cases report their clause")
    func clauses() {
        let counts = Dictionary(grouping: APlusSuite.cases(for: Design.fbl.adapter), by: \.clause)
            .mapValues(\.count)
        #expect(counts["2.1.2"] == 6)
        #expect(counts["2.2.7"] == 24)
        #expect(counts["2.3.3"] == 504)
        #expect(counts.count == 12)
    }

    @Test("a clause name selects its clause and the clauses under it, in the suite's order")
    func subsetByClause() throws {
        let adapter = Design.fbl.adapter
        let all = APlusSuite.cases(for: adapter)
        let clause2_3 = try APlusSuite.cases(for: adapter, clauses: ["2.3"])
        #expect(clause2_3.map(\.name) == all.filter { $0.clause.hasPrefix("2.3.") }.map(\.name))
        #expect(Set(clause2_3.map(\.clause)) == ["2.3.1", "2.3.2", "2.3.3", "2.3.4"])
        // Asked for out of order, given in the suite's order; "2.2.6" does not select 2.2.6x.
        let two = try APlusSuite.cases(for: adapter, clauses: ["2.2.7", "2.2.6"])
        #expect(two.map(\.name) == all.filter { ["2.2.6", "2.2.7"].contains($0.clause) }.map(\.name))
        let additions = try APlusSuite.cases(for: adapter, clauses: [APlusSuite.additionsClause])
        #expect(additions.map(\.name) == APlusSuite.additions(for: adapter).map(\.name))
        #expect(APlusSuite.clauses == all.map(\.clause).reduce(into: []) { if $0.last != $1 { $0.append($1) } })
    }

    @Test("a clause name that selects no case is an error that names it and lists the clauses")
    func unknownClause() {
        #expect(
            throws: APlusSuiteError.unknownClauses(
                ["2.2.5", "2.4"], known: APlusSuite.clauses + ["Additions", "Threads"])
        ) {
            try APlusSuite.cases(for: Design.fbl.adapter, clauses: ["2.3.3", "2.2.5", "2.4"])
        }
        #expect(throws: APlusSuiteError.noClauses) { try APlusSuite.cases(for: Design.fbl.adapter, clauses: []) }
        // Clauses have three parts: a deeper number is no clause of its own.
        #expect(throws: APlusSuiteError.self) { try APlusSuite.cases(for: Design.fbl.adapter, clauses: ["2.3.3.1"]) }
        let message = "\(APlusSuiteError.unknownClauses(["2.2.5"], known: ["2.1.2", "Additions"]))"
        #expect(
            message
                == "no Promises/A+ case is in clause 2.2.5; the clauses are 2.1.2, Additions (2.2.5 has no meaning in Swift)"
        )
    }
}
