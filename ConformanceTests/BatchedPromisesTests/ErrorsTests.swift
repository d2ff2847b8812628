import BatchedPromises
import Foundation
import TestSupport
import Testing

@Suite("Batched: errors and misuse")
struct ErrorsTests {
    @Test("the errors of a misuse say what went wrong")
    func descriptions() {
        #expect("\(SelfResolutionError())".contains("resolved with itself"))
        #expect("\(InvalidArgument("retry(attempts:) needs at least one attempt"))".contains("retry(attempts:)"))
    }

    /// `precondition` prints nothing in an optimised build: a user who reaches one sees "Illegal
    /// instruction" and no reason. A misuse either rejects the promise or stops with `fatalError`,
    /// whose message optimisation keeps (`misuse(_:as:)`). (`assert` checks the module's own
    /// invariants in debug builds, never a caller's input: an optimised build drops it whole.)
    @Test("the module reports a misuse with fatalError or a rejection, never with precondition")
    func noSilentTraps() throws {
        var breaks: [String] = []
        for file in PackageFiles.files(under: "Implementations/BatchedPromises", suffix: ".swift") {
            for (index, line) in try PackageFiles.read(file).split(separator: "\n", omittingEmptySubsequences: false)
                .enumerated()
            {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//"),
                    code.range(
                        of: #"\b(precondition|preconditionFailure)\("#,
                        options: .regularExpression) != nil
                else { continue }
                breaks.append(
                    RuleBreak(
                        file: file, line: index + 1, problem: "a trap that an optimised build stops at without a word",
                        fix: "reject through `misuse(_:as:)`, or stop with `fatalError` and a message", rule: "traps"
                    ).description)
            }
        }
        #expect(breaks.isEmpty, "\(breaks.joined(separator: "\n"))")
    }
}
