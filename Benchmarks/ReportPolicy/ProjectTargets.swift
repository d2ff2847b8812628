public import CompareKit
import DesignRegistry

/// The goals `benchmarks.md` checks each design against (never a test: timings on a shared machine
/// are evidence, not gates):
/// - FBL, the design closest to raw GCD: at most 1.5× on single and per chain link, and at or
///   below SwiftNIO's ratio on single, chain, all, fan-out and error propagation; at most 200
///   bytes and 4 allocations per pending promise with one `then`;
/// - AY: at most 1.3 times FBL's ratio on single, chain, all, fan-out and error propagation;
///   256 bytes and 6 allocations;
/// - QX: at most twice FBL's ratio on single, chain, fan-out and error propagation; 384 bytes
///   and 6 allocations;
/// - QN: at most 3× per chain link, at most twice FBL's ratio on two and three chained blocks,
///   fan-out and concurrent, at most 3 times a Swift `Task`'s ratio on cancellation (from
///   `cancel()` to the final callback); 256 bytes and 6 allocations.
///
/// Bytes are the heap's (the allocator's usable sizes), as `compare` counts them.
public enum ProjectTargets {
    /// The contenders the charts show beside the designs: the two a reader most often weighs a
    /// design against. On the ratio chart raw GCD is the line at 1×, so Swift concurrency and
    /// SwiftNIO's futures are the bars; on the growth charts raw GCD and Swift concurrency are the
    /// lines.
    public static let chartReferences = (ratios: ["Swift concurrency", "NIO"], growth: ["GCD", "Swift concurrency"])

    public static let table = TargetTable(
        scenarios: ["single", "single-2", "single-3", "concurrent", "chain", "all", "fan-out", "errors", "cancel"],
        limits: Dictionary(uniqueKeysWithValues: Design.allCases.map { ($0.rawValue, limits(for: $0)) }))

    static func limits(for design: Design) -> TargetTable.Limits {
        typealias Relative = TargetTable.RelativeLimit
        switch design {
        case .fbl:
            return .init(
                ratios: ["single": 1.5, "chain": 1.5],
                relative: Relative.on(["single", "chain", "all", "fan-out", "errors"], "NIO", factor: 1),
                bytesPerPending: 200, allocationsPerPending: 4)
        case .ay:
            return .init(
                relative: Relative.on(
                    ["single", "chain", "all", "fan-out", "errors"], Design.fbl.rawValue, factor: 1.3),
                bytesPerPending: 256, allocationsPerPending: 6)
        case .qx:
            return .init(
                relative: Relative.on(["single", "chain", "fan-out", "errors"], Design.fbl.rawValue, factor: 2),
                bytesPerPending: 384, allocationsPerPending: 6)
        case .qn:
            return .init(
                ratios: ["chain": 3],
                relative: Relative.on(
                    ["single-2", "single-3", "fan-out", "concurrent"], Design.fbl.rawValue, factor: 2
                )
                .merging(Relative.on(["cancel"], "Swift concurrency", factor: 3)) { first, _ in first },
                bytesPerPending: 256, allocationsPerPending: 6)
        }
    }
}
