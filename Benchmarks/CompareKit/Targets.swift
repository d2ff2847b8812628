/// The goals the report checks each design against (the project's goals), read from the report and never
/// asserted in a test: timings on a shared machine are evidence, not pass/fail gates.
public enum Targets {
    /// A popular Swift promise library measured on the project's machine, as ratios to raw GCD in
    /// the same run, and its memory per pending promise with one `then`: the bar every design must
    /// beat.
    public static let peerReference = Limits(
        ratios: ["single": 8.4, "chain": 7.6, "all": 4.1, "fan-out": 4.6],
        bytesPerPending: 848,
        allocationsPerPending: 23
    )

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
    /// than on a fixed ratio. Met within the two cells' MAD (see ``meets(measured:limit:tolerance:)``).
    public struct RelativeLimit: Sendable, Equatable {
        /// The contender whose ratio is the yardstick (`NIO`, `FBL`).
        public var contender: String
        public var factor: Double

        public init(contender: String, factor: Double) {
            self.contender = contender
            self.factor = factor
        }
    }

    /// The scenarios the targets quote, in report order.
    public static let scenarios = ["single", "chain", "all", "fan-out", "errors"]

    /// The limits for the design named `design`:
    /// - FBL, the design closest to raw GCD: at most 1.5× on single and per chain link, at or
    ///   below SwiftNIO's ratio on single, chain, all, fan-out and error propagation, at most
    ///   200 bytes and 4 allocations per pending promise with one `then`;
    /// - AY: at most 1.3 times FBL's ratio on each of those five scenarios;
    /// - the others (and AY): at most 3× on single, chain, all and fan-out;
    /// - every design under the peer's ratios, and at most 256 bytes and 6 allocations per pending
    ///   promise with one `then`.
    public static func limits(for design: String) -> Limits {
        let own: [String: Double] =
            design == "FBL" ? ["single": 1.5, "chain": 1.5] : ["single": 3, "chain": 3, "all": 3, "fan-out": 3]
        var limits = Limits(
            ratios: peerReference.ratios.merging(own) { Swift.min($0, $1) },
            bytesPerPending: 256,
            allocationsPerPending: 6
        )
        switch design {
        case "FBL":
            limits.relative = relativeOnEveryScenario(to: "NIO", factor: 1)
            limits.bytesPerPending = 200
            limits.allocationsPerPending = 4
        case "AY":
            limits.relative = relativeOnEveryScenario(to: "FBL", factor: 1.3)
        default:
            break
        }
        return limits
    }

    /// Whether `measured` meets `limit`, allowing `tolerance` (the run's noise in the same units).
    public static func meets(measured: Double, limit: Double, tolerance: Double = 0) -> Bool {
        measured <= limit + tolerance
    }

    private static func relativeOnEveryScenario(to contender: String, factor: Double) -> [String: RelativeLimit] {
        Dictionary(uniqueKeysWithValues: scenarios.map { ($0, RelativeLimit(contender: contender, factor: factor)) })
    }
}
