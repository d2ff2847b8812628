import APlusSuite
import Foundation
import Testing

/// The suite as a product other libraries depend on: its version is in the changelog, and its
/// public documentation and comments speak of the reader's library, not of this repository.
@Suite("The Promises/A+ suite as a product")
struct SuiteProductTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The folders of the suite's three products.
    static let productFolders = [
        "ConformanceTests/APlusSuite", "ConformanceTests/APlusSuiteTesting", "ConformanceTests/APlusSuiteXCTest",
    ]

    /// Words that speak of this repository rather than of the reader's library: its designs, its
    /// tools, its reports, its own tests, and the catalog the port was made from.
    static let repositoryWords = [
        #"\bdesigns?\b"#, #"this repository"#, #"\bcatalog\b"#, #"Reports/"#, #"swift run compare"#, #"\bbenchmark"#,
        #"DesignRegistry"#, #"MutationTests"#, #"swift-cases-tier"#,
    ]

    @Test("the changelog has a section for the suite's version")
    func versionInChangelog() throws {
        let changelog = try String(contentsOf: Self.root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        #expect(
            changelog.contains("\n## APlusSuite \(APlusSuite.version)\n"),
            "CHANGELOG.md has no section \"## APlusSuite \(APlusSuite.version)\"")
        #expect(APlusSuite.version.split(separator: ".").count == 3, "a semantic version: \(APlusSuite.version)")
    }

    /// Every `context.fail(…)` and `context.check(…)` call in the suite's sources, as written.
    static func failureCalls() throws -> [(file: String, line: Int, call: String)] {
        let folder = root.appendingPathComponent("ConformanceTests/APlusSuite")
        var calls: [(file: String, line: Int, call: String)] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        where file.hasSuffix(".swift") {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for start in ["context.fail(", "context.check("] {
                var searchFrom = source.startIndex
                while let found = source.range(of: start, range: searchFrom..<source.endIndex) {
                    // The call's text up to its closing parenthesis, parentheses inside string
                    // literals not counted.
                    var depth = 1
                    var inString = false
                    var index = found.upperBound
                    var previous: Character = "("
                    while depth > 0, index < source.endIndex {
                        let character = source[index]
                        if character == "\"", previous != "\\" {
                            inString.toggle()
                        } else if !inString {
                            if character == "(" { depth += 1 }
                            if character == ")" { depth -= 1 }
                        }
                        previous = character
                        index = source.index(after: index)
                    }
                    let line = source[..<found.lowerBound].filter { $0 == "\n" }.count + 1
                    calls.append((file, line, String(source[found.lowerBound..<index])))
                    searchFrom = index
                }
            }
        }
        return calls
    }

    @Test("every failure message the suite records says what was expected, beside what was observed")
    func failureMessagesStateTheExpectation() throws {
        let calls = try Self.failureCalls()
        #expect(calls.count >= 50, "found only \(calls.count) calls: the scan no longer finds them")
        // `fail(message())` passes on a message made by its caller, which is checked there.
        let missing = calls.filter { !$0.call.contains("expected") && !$0.call.contains("message()") }
        #expect(
            missing.isEmpty,
            """
            failure messages without the expectation: \(missing.map { "\($0.file):\($0.line): \($0.call)" }). \
            Fix: say what was expected beside what was observed ("… was called 2 times, expected once").
            """)
    }

    @Test("the suite's documentation and comments name nothing of this repository")
    func publicWording() throws {
        var found: [String] = []
        for folder in Self.productFolders {
            let url = Self.root.appendingPathComponent(folder)
            let files = try #require(FileManager.default.subpaths(atPath: url.path))
            for file in files where file.hasSuffix(".swift") || file.hasSuffix(".md") {
                let text = try String(contentsOf: url.appendingPathComponent(file), encoding: .utf8)
                for (number, line) in Self.prose(of: text, markdown: file.hasSuffix(".md")) {
                    for word in Self.repositoryWords
                    where line.range(of: word, options: [.regularExpression, .caseInsensitive]) != nil {
                        found.append("\(folder)/\(file):\(number): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
        #expect(found.isEmpty, "wording about this repository:\n\(found.joined(separator: "\n"))")
    }

    @Test("the wording check finds a repository word in a comment and passes code")
    func wordingCheckFinds() {
        let text = "/// Built for one design.\nlet design = 1\n// Reports/benchmarks.md\n"
        let lines = Self.prose(of: text, markdown: false).map(\.line)
        #expect(lines == ["/// Built for one design.", "// Reports/benchmarks.md"])
    }

    /// The lines a reader reads as prose: comments in Swift; in Markdown, everything outside code
    /// blocks.
    static func prose(of text: String, markdown: Bool) -> [(number: Int, line: String)] {
        var inCode = false
        var lines: [(Int, String)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if markdown {
                if trimmed.hasPrefix("```") {
                    inCode.toggle()
                    continue
                }
                if !inCode { lines.append((index + 1, String(line))) }
            } else if trimmed.hasPrefix("//") {
                lines.append((index + 1, String(line)))
            }
        }
        return lines
    }
}
