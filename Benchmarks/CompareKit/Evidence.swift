/// What the recorded runs say together: which records can speak for a comparison, which orders
/// hold in all of them, and each contender's ratio on each machine.
public struct Evidence: Sendable {
    /// Why `record` cannot speak for `contenders` on `scenario` (their code changed since it ran,
    /// say), or `nil` when it can. The project's policy decides; by default every record speaks.
    public typealias Exclusion = @Sendable (_ record: RunRecord, _ contenders: [String], _ scenario: String) -> String?

    public var records: [RunRecord]
    public var exclusion: Exclusion

    public init(records: [RunRecord], exclusion: @escaping Exclusion = { _, _, _ in nil }) {
        self.records = records
        self.exclusion = exclusion
    }

    /// A statement about two designs on one scenario over the records that can speak for both.
    public enum Finding: Equatable, Sendable {
        /// The first is faster beyond the noise in every such record.
        case alwaysBelow(String, String)
        /// Faster in one record, slower in another, both beyond the noise.
        case reversed(String, String)
    }

    /// The designs of every record, in first-seen order.
    public var designs: [String] {
        records.flatMap(\.designs).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    }

    /// The orders of the designs on `scenario` that every record separates the same way, and the
    /// pairs two records separate in opposite ways.
    public func findings(scenario: String) -> [Finding] {
        var findings: [Finding] = []
        let designs = self.designs
        for (index, first) in designs.enumerated() {
            for second in designs[(index + 1)...] {
                let orders = records.compactMap { record -> PairOrder? in
                    guard exclusion(record, [first, second], scenario) == nil else { return nil }
                    return record.scenario(scenario)?.ratio(first, over: second)?.order
                }
                guard !orders.isEmpty else { continue }
                if orders.allSatisfy({ $0 == .below }) {
                    findings.append(.alwaysBelow(first, second))
                } else if orders.allSatisfy({ $0 == .above }) {
                    findings.append(.alwaysBelow(second, first))
                } else if orders.contains(.below) && orders.contains(.above) {
                    findings.append(.reversed(first, second))
                }
            }
        }
        return findings
    }

    /// The machines of the records, in first-seen order, each with its latest record.
    public var latestPerMachine: [(machine: String, record: RunRecord)] {
        var latest: [(machine: String, record: RunRecord)] = []
        for record in records {
            let machine = record.run.machine.label
            if let index = latest.firstIndex(where: { $0.machine == machine }) {
                latest[index].record = record
            } else {
                latest.append((machine, record))
            }
        }
        return latest
    }
}
