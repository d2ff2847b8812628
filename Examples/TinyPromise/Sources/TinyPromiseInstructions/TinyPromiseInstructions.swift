import PromiseCosts
import TinyPromiseCosts

// snippet: costs-instruction-tool
/// Counts TinyPromise's instructions per operation under callgrind:
/// `swift run -c release TinyPromiseInstructions`.
@main
enum TinyPromiseInstructions {
    static func main() { InstructionCountingTool.main(tinyPromiseOperations) }
}
// end-snippet
