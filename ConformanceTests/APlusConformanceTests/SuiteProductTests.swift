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
