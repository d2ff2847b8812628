import APlusSuite
import APlusSuiteTesting
import DesignRegistry
import Testing

/// The Swift Testing runner's other form, one test case per Promises/A+ case, as an outside
/// library writes it (`APlusSuite.expectConformance` is the form `APlusConformanceTests` uses).
@Suite("Promises/A+ runner: one Swift Testing case per A+ case", .serialized)
struct APlusSuiteTestingRunnerTests {
    static let clause2_1_2 = (try? APlusSuite.cases(for: Design.fbl.adapter, clauses: ["2.1.2"])) ?? []

    @Test("each case is listed under its full name")
    func names() {
        #expect(Self.clause2_1_2.count == 6)
        #expect(Self.clause2_1_2.allSatisfy { $0.testDescription == $0.name && $0.name.hasPrefix("2.1.2.1: ") })
    }

    @Test("FBL, 2.1.2", .serialized, arguments: clause2_1_2)
    func eachCase(_ aplusCase: APlusCase) async {
        await aplusCase.expectPass()
    }
}
