public import CompareKit
import CostOperations
import DesignRegistry

/// The goals `benchmarks.md` checks each design against (never a test: timings on a shared machine
/// are evidence, not gates). Each design states its own in its operations file
/// (`CostedDesign.targets`, beside its cost budgets); bytes are the heap's (the allocator's usable
/// sizes), as `compare` counts them.
public enum ProjectTargets {
    /// The contenders the charts show beside the designs: the two a reader most often weighs a
    /// design against. On the ratio chart raw GCD is the line at 1×, so Swift concurrency and
    /// SwiftNIO's futures are the bars; on the growth charts raw GCD and Swift concurrency are the
    /// lines.
    public static let chartReferences = (ratios: ["Swift concurrency", "NIO"], growth: ["GCD", "Swift concurrency"])

    public static let table = TargetTable(
        scenarios: ["single", "single-2", "single-3", "concurrent", "chain", "all", "fan-out", "errors", "cancel"],
        limits: Dictionary(
            uniqueKeysWithValues: Design.allCases.compactMap { design in
                design.costs.map { (design.rawValue, $0.targets) }
            }))
}
