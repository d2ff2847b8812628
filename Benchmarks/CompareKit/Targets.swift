/// The goals the report checks each design against, read from the report and never asserted in a
/// test: timings on a shared machine are evidence, not pass/fail gates.
///
/// Every limit is a ratio to raw GCD or to another contender measured in the same run (SwiftNIO,
/// FBL, Swift concurrency); no figure comes from outside the run.
public enum Targets {
    /// The limits one design must meet.
    public struct Limits: Sendable, Equatable {
        /// Scenario id → the highest acceptable ratio to raw GCD per unit.
        public var ratios: [String: Double]
        /// Scenario id → a limit set by another contender's ratio in the same run.
        public var relative: [String: RelativeLimit] = [:]
        public var bytesPerPending: Double
        public var allocationsPerPending: Double
    }

    /// "At most `factor` times `contender`'s ratio in the same run": a goal that moves with the
    /// machine as the contender it names does, so two runs on a noisy machine agree on it more
    /// than on a fixed ratio. Judged on the interval of the design's time over the contender's
    /// (``Verdict``).
    public struct RelativeLimit: Sendable, Equatable {
        /// The contender whose ratio is the yardstick (`NIO`, `FBL`, `Swift concurrency`).
        public var contender: String
        public var factor: Double

        public init(contender: String, factor: Double) {
            self.contender = contender
            self.factor = factor
        }
    }

    /// The scenarios the targets quote, in report order.
    public static let scenarios = [
        "single", "single-2", "single-3", "concurrent", "chain", "all", "fan-out", "errors", "cancel",
    ]

    /// The limits for the design named `design`:
    /// - FBL, the design closest to raw GCD: at most 1.5× on single and per chain link, and at or
    ///   below SwiftNIO's ratio on single, chain, all, fan-out and error propagation; at most 200
    ///   bytes and 4 allocations per pending promise with one `then`;
    /// - AY: at most 1.3 times FBL's ratio on single, chain, all, fan-out and error propagation;
    ///   256 bytes and 6 allocations;
    /// - QX: at most twice FBL's ratio on single, chain, fan-out and error propagation; 384 bytes
    ///   and 6 allocations;
    /// - QN: at most 3× per chain link, at most twice FBL's ratio on two and three chained blocks,
    ///   fan-out and concurrent, at most 3 times a Swift `Task`'s ratio on cancellation (from
    ///   `cancel()` to the final callback); 256 bytes and 6 allocations;
    /// - any other design: none (the table shows its ratios only).
    public static func limits(for design: String) -> Limits {
        switch design {
        case "FBL":
            return Limits(
                ratios: ["single": 1.5, "chain": 1.5],
                relative: relative(to: "NIO", factor: 1, on: ["single", "chain", "all", "fan-out", "errors"]),
                bytesPerPending: 200, allocationsPerPending: 4)
        case "AY":
            return Limits(
                ratios: [:],
                relative: relative(to: "FBL", factor: 1.3, on: ["single", "chain", "all", "fan-out", "errors"]),
                bytesPerPending: 256, allocationsPerPending: 6)
        case "QX":
            return Limits(
                ratios: [:],
                relative: relative(to: "FBL", factor: 2, on: ["single", "chain", "fan-out", "errors"]),
                bytesPerPending: 384, allocationsPerPending: 6)
        case "QN":
            return Limits(
                ratios: ["chain": 3],
                relative: relative(to: "FBL", factor: 2, on: ["single-2", "single-3", "fan-out", "concurrent"])
                    .merging(relative(to: "Swift concurrency", factor: 3, on: ["cancel"])) { first, _ in first },
                bytesPerPending: 256, allocationsPerPending: 6)
        default:
            return Limits(ratios: [:], bytesPerPending: .infinity, allocationsPerPending: .infinity)
        }
    }

    private static func relative(
        to contender: String, factor: Double, on scenarios: [String]
    ) -> [String: RelativeLimit] {
        Dictionary(uniqueKeysWithValues: scenarios.map { ($0, RelativeLimit(contender: contender, factor: factor)) })
    }
}
