public import Foundation

/// What `Reports/runs/` keeps of one full run: where and when it ran, and per scenario the ratio
/// of every contender to raw GCD at the headline size with its 95 % interval, without the samples.
///
/// A full run adds its record beside the earlier ones, which may come from other machines, so that
/// the report can show which rankings hold on every machine; `compare record` adds the record of a
/// report made elsewhere. A few kilobytes each.
public struct RunRecord: Codable, Equatable, Sendable {
    /// The format version this code writes and reads.
    public static let currentVersion = 1
    /// The folder of the records, beside the reports.
    public static let folderName = "runs"

    public var version: Int
    public var run: RunInfo
    /// The designs the run measured, in report order (the other contenders are baselines and
    /// peers, which the record keeps ratios of but does not rank).
    public var designs: [String]
    public var scenarios: [ScenarioRecord]
    public var memory: [MemoryResult]

    /// The record of `report`.
    public init(report: BenchmarkReport) {
        version = Self.currentVersion
        run = report.run
        designs = report.contenders.filter { $0.kind == .design }.map(\.name)
        scenarios = report.scenarios.compactMap { scenario in
            guard let size = scenario.result(at: scenario.headlineSize) ?? scenario.sizes.last else { return nil }
            var ratios: [String: Interval] = [:]
            for contender in report.contenders {
                ratios[contender.name] = MarkdownReport.interval(contender.name, in: size).map(Self.rounded)
            }
            return ScenarioRecord(id: scenario.id, title: scenario.title, size: size.size, ratios: ratios)
        }
        memory = report.memory
    }

    /// Four significant digits: more than any run can tell, and a record stays a few kilobytes.
    static func rounded(_ interval: Interval) -> Interval {
        func round(_ value: Double) -> Double {
            guard value != 0, value.isFinite else { return value }
            let scale = pow(10, 3 - floor(log10(abs(value))))
            return (value * scale).rounded() / scale
        }
        return Interval(value: round(interval.value), low: round(interval.low), high: round(interval.high))
    }

    /// `2026-11-26T15-02-11Z-intel-xeon-processor-5bee67c.json`: sorts by date, and says where
    /// and what ran.
    public var fileName: String {
        let date = run.date.replacingOccurrences(of: ":", with: "-")
        let cpu = run.machine.cpu.lowercased()
            .replacingOccurrences(of: "(r)", with: "").replacingOccurrences(of: "(tm)", with: "")
            .split { !$0.isLetter && !$0.isNumber }.prefix(4).joined(separator: "-")
        return "\(date)-\(cpu)-\(run.commit).json"
    }

    /// The record's JSON, with sorted keys; on one line, as a record is written once.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Reads a record, refusing a format version this code does not know.
    public static func decode(from data: Data) throws -> RunRecord {
        let record = try JSONDecoder().decode(RunRecord.self, from: data)
        guard record.version == currentVersion else {
            throw ReportError.unsupportedVersion(found: record.version, expected: currentVersion)
        }
        return record
    }

    /// Every record in `folder`, oldest first; none when the folder does not exist.
    public static func all(in folder: URL) throws -> [RunRecord] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return try names.filter { $0.hasSuffix(".json") }.sorted().map { name in
            try decode(from: Data(contentsOf: folder.appendingPathComponent(name)))
        }
    }
}

/// One scenario of a run record.
public struct ScenarioRecord: Codable, Equatable, Sendable {
    public var id: String
    public var title: String
    /// The headline size the ratios are for.
    public var size: Int
    /// Contender → its time per unit as a ratio to raw GCD's, with the 95 % interval.
    public var ratios: [String: Interval]
}

/// Which orders of the designs hold across recorded runs.
public enum RunComparison {
    /// A statement about two designs on one scenario, over the runs that measured both.
    public enum Finding: Equatable, Sendable {
        /// The first is below the second beyond the noise in every run.
        case alwaysBelow(String, String)
        /// Below in one run, above in another, both beyond the noise.
        case reversed(String, String)
    }

    /// The findings for `scenario` over `records`, in the designs' order.
    public static func findings(scenario: String, records: [RunRecord]) -> [Finding] {
        let designs = records.flatMap(\.designs).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        var findings: [Finding] = []
        for (index, first) in designs.enumerated() {
            for second in designs[(index + 1)...] {
                let pairs = records.compactMap { record -> (Interval, Interval)? in
                    guard let ratios = record.scenarios.first(where: { $0.id == scenario })?.ratios,
                        let a = ratios[first], let b = ratios[second]
                    else { return nil }
                    return (a, b)
                }
                guard !pairs.isEmpty else { continue }
                let below = pairs.filter { $0.0.isBelow($0.1) }.count
                let above = pairs.filter { $0.1.isBelow($0.0) }.count
                if below == pairs.count {
                    findings.append(.alwaysBelow(first, second))
                } else if above == pairs.count {
                    findings.append(.alwaysBelow(second, first))
                } else if below > 0 && above > 0 {
                    findings.append(.reversed(first, second))
                }
            }
        }
        return findings
    }
}
