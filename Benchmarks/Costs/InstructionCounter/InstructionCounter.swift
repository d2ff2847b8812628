import CostOperations
import PromiseCosts

/// Counts the instructions of every design's operations under valgrind's callgrind and checks
/// them against their budgets, through the cost product's instruction runner (`PromiseCosts`):
/// `swift run -c release InstructionCounter [--report Reports/instructions.md]`.
@main
enum InstructionCounter {
    static func main() {
        InstructionCountingTool.main(CostOperations.all, showsDesigns: false, reportNotes: notes)
    }

    /// What the report adds for this project: where its times are, and how much a build's layout
    /// alone moves a count.
    static let notes = """
        A cost that does not move between runs, beside the times in [benchmarks.md](benchmarks.md); \
        each design's operations are written with its own API in `Benchmarks/Costs/CostOperations`, \
        beside their budgets, and counted by the cost product's instruction runner \
        (`Benchmarks/PromiseCosts`), which any promise library can use (README, "Measuring your \
        promise library"). Builds of different code can move a count by up to 2 % with no change to \
        the operation's own code (QN's map link: 10,325 and 10,537 in two builds of the same QN \
        sources, the code around it laid out differently), so CI allows 3 %. SwiftNIO and Combine \
        are left out to keep this tool's dependencies to the designs; their costs are in \
        [benchmarks.md](benchmarks.md), in time only.
        """
}
