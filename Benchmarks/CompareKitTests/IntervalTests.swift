import Foundation
import Testing

@testable import CompareKit

@Suite("Intervals, ranks and verdicts")
struct IntervalTests {
    @Test("the interval contains the point estimate and is the same for the same samples and seed")
    func repeatable() {
        let top: [[Double]] = [[10, 11, 12, 10, 11], [14, 15, 13, 14, 15], [11, 12, 11, 12, 13]]
        let bottom: [[Double]] = [[5, 5, 6, 5, 5], [6, 6, 7, 6, 6], [5, 6, 5, 6, 5]]
        let first = Bootstrap.ratio(top, over: bottom, seed: 7)
        #expect(first == Bootstrap.ratio(top, over: bottom, seed: 7))
        #expect(first.low <= first.value && first.value <= first.high)
        #expect(first.value == 12.0 / 6.0 || abs(first.value - 12.0 / 6.0) < 1e-12)
    }

    @Test("spread between process runs widens the interval; repetitions alone cannot hide it")
    func processSpreadCounts() {
        let bottom: [[Double]] = Array(repeating: [1, 1, 1, 1, 1], count: 3)
        let calm = Bootstrap.ratio(
            [[2, 2.01, 1.99, 2, 2], [2, 2.01, 1.99, 2, 2], [2, 2, 2.01, 1.99, 2]], over: bottom, seed: 1)
        // Each process is as steady as the calm one, but the processes disagree.
        let drifting = Bootstrap.ratio(
            [[2, 2.01, 1.99, 2, 2], [2.6, 2.61, 2.59, 2.6, 2.6], [2.3, 2.3, 2.31, 2.29, 2.3]], over: bottom, seed: 1)
        #expect(calm.high - calm.low < 0.05)
        #expect(drifting.high - drifting.low > 0.5)
    }

    @Test("a rank counts only the designs faster beyond the noise by the paired interval, so ties share a rank")
    func ranks() {
        // Paired intervals: FBL and AY tie, AY and QX tie, FBL is faster than QX, everyone than QN.
        let pairs: [String: Interval] = [
            "FBL / AY": Interval(value: 0.9, low: 0.8, high: 1.05),
            "AY / QX": Interval(value: 0.95, low: 0.85, high: 1.1),
            "FBL / QX": Interval(value: 0.8, low: 0.7, high: 0.9),
            "FBL / QN": Interval(value: 0.4, low: 0.3, high: 0.5),
            "AY / QN": Interval(value: 0.5, low: 0.4, high: 0.6), "QX / QN": Interval(value: 0.55, low: 0.5, high: 0.6),
        ]
        let scenario = ScenarioRecord(id: "chain", title: "chain", size: 1, pairs: pairs)
        let reference = ["FBL": 2.6, "AY": 3.0, "QX": 3.3, "QN": 6.0]
        let places = Ranking.places(
            ["QN", "AY", "FBL", "QX"], reference: { reference[$0] }, paired: { scenario.ratio($0, over: $1) })
        #expect(places.map(\.contender) == ["FBL", "AY", "QX", "QN"])
        #expect(places.map(\.rank) == [1, 1, 2, 4])
        #expect(Ranking.text(places) == "1 FBL, AY · 2 QX · 4 QN")
        #expect(Ranking.ties(places) { scenario.ratio($0, over: $1) }.map { "\($0.0)=\($0.1)" } == ["FBL=AY", "AY=QX"])
    }

    @Test("a paired interval separates what intervals to a third contender cannot: the same process runs' luck cancels")
    func pairedSeparates() {
        // Each process run is faster or slower as a whole (the machine's luck), A always 10 % below B.
        let luck: [Double] = [1, 1.4, 0.8]
        let a = luck.map { factor in [2.0, 2.01, 1.99, 2.0, 2.02].map { $0 * factor * 0.9 } }
        let b = luck.map { factor in [2.0, 2.02, 1.98, 2.01, 2.0].map { $0 * factor } }
        let gcd = [[1.0, 1.01, 0.99, 1, 1], [1.0, 1.01, 0.99, 1, 1], [1.0, 1.01, 0.99, 1, 1]]
        let toGCD = (
            a: Bootstrap.pairedRatio(("A", a), over: ("GCD", gcd), context: [])!,
            b: Bootstrap.pairedRatio(("B", b), over: ("GCD", gcd), context: [])!
        )
        #expect(toGCD.a.overlaps(toGCD.b), "to raw GCD, the process runs' luck hides the difference")
        let paired = Bootstrap.pairedRatio(("A", a), over: ("B", b), context: [])!
        #expect(paired.order == .below, "A over B from the same runs: \(paired)")
        let reverse = Bootstrap.pairedRatio(("B", b), over: ("A", a), context: [])!
        #expect(abs(reverse.value * paired.value - 1) < 1e-12 && abs(reverse.low * paired.high - 1) < 1e-12)
    }

    @Test("a limit is met only below the whole interval, missed only under it, and undecided inside it")
    func verdicts() {
        let interval = Interval(value: 2.7, low: 2.5, high: 2.9)
        #expect(Verdict(interval, limit: 3) == .met)
        #expect(Verdict(interval, limit: 2.9) == .met)
        #expect(Verdict(interval, limit: 2.67) == .undecided)
        #expect(Verdict(interval, limit: 2.4) == .missed)
    }

    @Test(
        "across runs: an order beyond the noise in every run holds; one that flips is named; a left-out run is not asked"
    )
    func acrossRuns() {
        func record(_ pairs: [String: Interval], commit: String) -> RunRecord {
            var record = ReportFixture.record
            record.run.commit = commit
            record.designs = ["FBL", "AY", "QX"]
            record.scenarios = [ScenarioRecord(id: "fan-out", title: "fan-out", size: 1, pairs: pairs)]
            return record
        }
        let one = record(
            [
                "FBL / AY": Interval(value: 1.2, low: 1.1, high: 1.3),
                "FBL / QX": Interval(value: 0.5, low: 0.4, high: 0.6),
                "AY / QX": Interval(value: 0.4, low: 0.35, high: 0.45),
            ], commit: "one")
        let two = record(
            [
                "FBL / AY": Interval(value: 0.8, low: 0.7, high: 0.9),
                "FBL / QX": Interval(value: 0.6, low: 0.5, high: 0.7),
                "AY / QX": Interval(value: 1.1, low: 1.05, high: 1.2),
            ], commit: "two")
        #expect(
            Evidence(records: [one, two]).findings(scenario: "fan-out")
                == [.reversed("FBL", "AY"), .alwaysBelow("FBL", "QX"), .reversed("AY", "QX")])
        let withoutTwoForAY = Evidence(records: [one, two]) { record, contenders, _ in
            record.run.commit == "two" && contenders.contains("AY") ? "AY changed" : nil
        }
        #expect(
            withoutTwoForAY.findings(scenario: "fan-out")
                == [.alwaysBelow("AY", "FBL"), .alwaysBelow("FBL", "QX"), .alwaysBelow("AY", "QX")])
    }

    @Test("a record round-trips, and its file name sorts by date and names the machine and commit")
    func recordFile() throws {
        let record = ReportFixture.record
        #expect(try RunRecord.decode(from: record.jsonData()) == record)
        #expect(record.fileName == "2026-11-21T12-00-00Z-test-cpu-2-cores-abc1234.json")
        #expect(record.scenarios.map(\.id) == ["single", "chain"])
        #expect(record.scenarios[1].size == 100)
    }
}
