/// The goals a report checks each design against, read from the report and never asserted in a
/// test: timings on a shared machine are evidence, not pass/fail gates. The project states them
/// (`ReportPolicy`); this is their shape.
///
/// Every limit is a ratio to raw GCD or to another contender measured in the same run, so no
/// figure comes from outside the run.
public struct TargetTable: Sendable, Equatable {
    /// The limits one design must meet.
    public struct Limits: Sendable, Equatable {
        /// Scenario id → the highest acceptable ratio to raw GCD per unit.
        public var ratios: [String: Double]
        /// Scenario id → a limit set by another contender's ratio in the same run.
        public var relative: [String: RelativeLimit]
        public var bytesPerPending: Double
        public var allocationsPerPending: Double

        public init(
            ratios: [String: Double] = [:], relative: [String: RelativeLimit] = [:], bytesPerPending: Double,
            allocationsPerPending: Double
        ) {
            self.ratios = ratios
            self.relative = relative
            self.bytesPerPending = bytesPerPending
            self.allocationsPerPending = allocationsPerPending
        }
    }

    /// "At most `factor` times `contender`'s ratio in the same run": a goal that moves with the
    /// machine as the contender it names does. Judged on the interval of the design's time over the
    /// contender's (``Verdict``).
    public struct RelativeLimit: Sendable, Equatable {
        /// The contender whose ratio is the yardstick (`NIO`, `FBL`, `Swift concurrency`).
        public var contender: String
        public var factor: Double

        public init(contender: String, factor: Double) {
            self.contender = contender
            self.factor = factor
        }

        /// The same limit on each of `scenarios`.
        public static func on(_ scenarios: [String], _ contender: String, factor: Double) -> [String: RelativeLimit] {
            Dictionary(
                uniqueKeysWithValues: scenarios.map { ($0, RelativeLimit(contender: contender, factor: factor)) })
        }
    }

    /// The scenarios the table quotes, in report order.
    public var scenarios: [String]
    /// Design → its limits; a design without an entry has none (the table shows its ratios only).
    public var limits: [String: Limits]

    public init(scenarios: [String], limits: [String: Limits]) {
        self.scenarios = scenarios
        self.limits = limits
    }

    /// No targets at all.
    public static let none = TargetTable(scenarios: [], limits: [:])
}
