/// Where this project's five designs stand, for comparison with a library's own counts: the
/// instructions per unit of their standard operations, as their budgets state them (the
/// project's tests check that these are the budgets).
///
/// Instruction counts depend on the CPU's architecture, the C library and the toolchain, not on
/// the machine's speed or load: two different x86_64 CPUs gave the same counts within 0.3 %. So
/// these compare with a count taken on x86_64 Linux with the same toolchain; the table gives
/// them as ratios to raw GCD's count of the same run, which carry further.
public struct DesignCounts: Sendable {
    /// The design, as the project names it: "FBL".
    public let design: String
    /// Instructions per unit, by operation.
    public let counts: [StandardOperation: Int]

    /// Where the counts were taken.
    public static let conditions = "x86_64 Linux, Swift 6.3, release builds; ratios to this run's raw GCD"

    /// Raw GCD's counts on the same conditions.
    public static let gcd: [StandardOperation: Int] = [.chainLink: 1_236, .fanOutObserver: 1_562]

    /// The five designs, in the project's order.
    public static let all: [DesignCounts] = [
        DesignCounts(
            design: "FBL",
            counts: [
                .pendingWithOneThen: 8_640, .chainLink: 4_547, .errorLink: 4_684, .fanOutObserver: 5_459,
                .allInput: 7_537,
            ]),
        DesignCounts(
            design: "AY",
            counts: [.pendingWithOneThen: 11_040, .chainLink: 6_343, .fanOutObserver: 7_642, .allInput: 12_000]),
        DesignCounts(
            design: "QX",
            counts: [.pendingWithOneThen: 14_505, .chainLink: 7_065, .fanOutObserver: 8_280, .allInput: 10_121]),
        DesignCounts(
            design: "QN",
            counts: [.pendingWithOneThen: 11_014, .chainLink: 5_542, .errorLink: 5_397, .fanOutObserver: 8_968]),
        DesignCounts(
            design: "Batched",
            counts: [
                .pendingWithOneThen: 4_577, .chainLink: 1_232, .errorLink: 1_178, .fanOutObserver: 1_343,
                .allInput: 2_656,
            ]),
    ]

    /// One line: each operation's count and, where raw GCD has a counterpart, its ratio to
    /// `gcd`'s (this run's raw GCD counts, by operation name).
    func summary(gcd: [String: Double]) -> String {
        let parts = StandardOperation.allCases.compactMap { operation -> String? in
            guard let count = counts[operation] else { return nil }
            let compared = operation == .errorLink ? StandardOperation.chainLink : operation
            let ratio = gcd[compared.rawValue].map { " (\(InstructionTable.ratio(Double(count) / $0)))" } ?? ""
            return "\(operation.rawValue) \(InstructionTable.count(count))\(ratio)"
        }
        return "\(design.padding(toLength: 8, withPad: " ", startingAt: 0)) \(parts.joined(separator: ", "))"
    }
}
