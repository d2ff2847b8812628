public import Foundation

/// What `Reports/runs/` keeps of one full run: where and when it ran, and per scenario at its
/// headline size the paired interval of every contender's time over every other's.
///
/// A paired interval is the ratio of one contender's time over another's with its 95 % interval,
/// bootstrapped from the process runs that measured both side by side
/// (``ScenarioRecord/ratio(_:over:)``): the same numbers the run's own report shows. So a record
/// from any machine ranks the designs, and checks a claim, as the report does, without its
/// samples. A full run adds its record beside the earlier ones; `compare record` adds the record of
/// a report made elsewhere. Some 30 kB each.
public struct RunRecord: Codable, Equatable, Sendable {
    /// The format version this code writes and reads. Version 1 kept intervals to raw GCD only,
    /// which cannot rank two designs against each other.
    public static let currentVersion = 2
    /// The folder of the records, beside the reports.
    public static let folderName = "runs"

    public var version: Int
    public var run: RunInfo
    /// The designs the run measured, in report order (the other contenders are baselines and
    /// peers, which a record keeps but does not rank).
    public var designs: [String]
    public var scenarios: [ScenarioRecord]
    public var memory: [MemoryResult]

    /// The record of `report`: every scenario at its headline size.
    public init(report: BenchmarkReport) {
        version = Self.currentVersion
        run = report.run
        designs = report.contenders.filter { $0.kind == .design }.map(\.name)
        scenarios = report.scenarios.compactMap { scenario in
            guard let size = scenario.result(at: scenario.headlineSize) ?? scenario.sizes.last else { return nil }
            var pairs: [String: Interval] = [:]
            for (index, first) in size.cells.enumerated() {
                for second in size.cells[(index + 1)...] {
                    let interval = MarkdownReport.interval(first.contender, over: second.contender, in: size)
                    pairs[ScenarioRecord.key(first.contender, second.contender)] = interval.map(Self.rounded)
                }
            }
            return ScenarioRecord(id: scenario.id, title: scenario.title, size: size.size, pairs: pairs)
        }
        memory = report.memory
    }

    /// Four significant digits: more than any run can tell, and a record stays small.
    static func rounded(_ interval: Interval) -> Interval {
        func round(_ value: Double) -> Double {
            guard value != 0, value.isFinite else { return value }
            let scale = pow(10, 3 - floor(log10(abs(value))))
            return (value * scale).rounded() / scale
        }
        return Interval(value: round(interval.value), low: round(interval.low), high: round(interval.high))
    }

    /// The scenario `id`, if the run measured it.
    public func scenario(_ id: String) -> ScenarioRecord? { scenarios.first { $0.id == id } }

    /// `2026-11-26T15-02-11Z-intel-xeon-processor-2-cores-5bee67c.json`: sorts by date, and says
    /// where and what ran.
    public var fileName: String {
        let date = run.date.replacingOccurrences(of: ":", with: "-")
        return "\(date)-\(run.machine.slug)-\(run.commit).json"
    }

    /// The record's JSON, with sorted keys; on one line, as a record is written once.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Reads a record, refusing a format version this code does not know.
    public static func decode(from data: Data) throws -> RunRecord {
        try decodeVersioned(from: data, expected: currentVersion, or: ReportError.unsupportedRecordVersion)
    }

    /// Every record in `folder`, oldest first; none when the folder does not exist.
    public static func all(in folder: URL) throws -> [RunRecord] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return try names.filter { $0.hasSuffix(".json") }.sorted().map { name in
            do {
                return try decode(from: Data(contentsOf: folder.appendingPathComponent(name)))
            } catch {
                throw ReportError.unreadableRecord(name: name, reason: "\(error)")
            }
        }
    }
}

/// One scenario of a run record, at its headline size.
public struct ScenarioRecord: Codable, Equatable, Sendable {
    public var id: String
    public var title: String
    /// The headline size the intervals are for.
    public var size: Int
    /// "A / B" → A's time over B's with its 95 % interval, for every two contenders that ran, each
    /// pair once (B over A is its reciprocal).
    public var pairs: [String: Interval]

    public init(id: String, title: String, size: Int, pairs: [String: Interval]) {
        self.id = id
        self.title = title
        self.size = size
        self.pairs = pairs
    }

    static func key(_ first: String, _ second: String) -> String { "\(first) / \(second)" }

    /// `contender`'s time over `yardstick`'s with its 95 % interval, from the process runs that
    /// measured both, or `nil` when either did not run.
    public func ratio(_ contender: String, over yardstick: String) -> Interval? {
        if let interval = pairs[Self.key(contender, yardstick)] { return interval }
        return pairs[Self.key(yardstick, contender)].map {
            Interval(value: 1 / $0.value, low: 1 / $0.high, high: 1 / $0.low)
        }
    }
}

extension MachineInfo {
    /// "Intel Xeon" for "Intel(R) Xeon(R) Processor", "AMD EPYC" for "AMD EPYC": the CPU's model
    /// name without trademarks, the words "Processor" and "CPU", and a clock speed. Claims name a
    /// machine's CPU type this way.
    public var cpuType: String { Self.cpuType(of: cpu) }

    /// ``cpuType`` of a CPU model name.
    public static func cpuType(of cpu: String) -> String {
        let name = cpu.split(separator: "@").first.map(String.init) ?? cpu
        return name.replacingOccurrences(of: "(R)", with: "").replacingOccurrences(of: "(TM)", with: "")
            .split(separator: " ")
            .filter { !["processor", "cpu"].contains($0.lowercased()) }
            .joined(separator: " ")
    }

    /// "AMD EPYC, 2 cores": how reports name a machine.
    public var label: String { "\(cpu), \(cores) core\(cores == 1 ? "" : "s")" }

    /// `amd-epyc-2-cores`: the machine in a file name.
    var slug: String {
        let words = cpu.lowercased()
            .replacingOccurrences(of: "(r)", with: "").replacingOccurrences(of: "(tm)", with: "")
            .split { !$0.isLetter && !$0.isNumber }.prefix(3)
        return (words + ["\(cores)", cores == 1 ? "core" : "cores"]).joined(separator: "-")
    }
}
