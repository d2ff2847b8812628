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
        public var bytesPerPending: Double
        public var allocationsPerPending: Double
    }

    /// The scenarios the targets quote, in report order.
    public static let scenarios = ["single", "chain", "all", "fan-out"]

    /// The limits for the design named `design`: FBL, the design closest to raw GCD, at most 1.5×
    /// on single and per chain link; the others at most 3× on single, chain, all and fan-out; every
    /// design under the peer's ratios, and at most 256 bytes and 6 allocations per pending promise
    /// with one `then`.
    public static func limits(for design: String) -> Limits {
        let own: [String: Double] =
            design == "FBL" ? ["single": 1.5, "chain": 1.5] : ["single": 3, "chain": 3, "all": 3, "fan-out": 3]
        return Limits(
            ratios: peerReference.ratios.merging(own) { Swift.min($0, $1) },
            bytesPerPending: 256,
            allocationsPerPending: 6
        )
    }
}
