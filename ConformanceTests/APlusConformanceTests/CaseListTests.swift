import APlusSuite
import DesignRegistry
import Foundation
import Testing

/// The port holds exactly the cases the catalog says a faithful Tier A port contains.
@Suite("Promises/A+ case list")
struct CaseListTests {
    /// `swift-cases-tierA.txt` from the catalog, one case name per line (648).
    static let tierANames: [String] = {
        let fixture = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures/swift-cases-tierA.txt")
        let text = (try? String(contentsOf: fixture, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }()

    @Test("the fixture lists 648 distinct cases")
    func fixtureIsComplete() {
        #expect(Self.tierANames.count == 648)
        #expect(Set(Self.tierANames).count == 648)
    }

    @Test("every design runs exactly the Tier A cases", arguments: Design.allCases)
    func casesMatchTierA(_ design: Design) {
        let names = DesignCase.cases(for: design.promiseType).map(\.name)
        #expect(names.count == 648)
        let missing = Set(Self.tierANames).subtracting(names)
        let extra = Set(names).subtracting(Self.tierANames)
        #expect(missing.isEmpty, "missing: \(missing.sorted().prefix(5))")
        #expect(extra.isEmpty, "not in the catalog: \(extra.sorted().prefix(5))")
    }

    @Test(
        "the cases this port adds: 12, named apart from the catalog, reported as Additions", arguments: Design.allCases)
    func additions(_ design: Design) {
        let additions = DesignCase.additions(for: design.promiseType)
        let names = additions.map(\.name)
        #expect(names.count == 12)
        #expect(Set(names).count == 12)
        #expect(Set(names).isDisjoint(with: Self.tierANames))
        #expect(additions.allSatisfy { $0.clause == "Additions" })
    }

    @Test("cases report their clause")
    func clauses() {
        let counts = Dictionary(grouping: DesignCase.cases(for: Design.fbl.promiseType), by: \.clause)
            .mapValues(\.count)
        #expect(counts["2.1.2"] == 6)
        #expect(counts["2.2.7"] == 24)
        #expect(counts["2.3.3"] == 504)
        #expect(counts.count == 12)
    }
}
