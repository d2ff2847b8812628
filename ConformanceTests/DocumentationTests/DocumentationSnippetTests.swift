import DesignRegistry
import Foundation
import Testing

/// Every Swift code block of the documentation compiles: each is made of snippets that are
/// compiled code in this target (ReadmeSnippets.swift, DocCSnippets.swift) or in the scenario
/// tests (the design review's checkout), between `// snippet: NAME` and `// end-snippet` lines.
///
/// A block passes when, without its `import` lines, it is nothing but snippets, verbatim (after
/// removing the snippet's common indentation and its `///` doc-comment lines). A new block in the
/// README, a DocC article or a report fails here until its code is added to a snippet file; a
/// snippet no block uses fails too, so the two cannot drift apart.
@Suite("Documentation: every code block is compiled code")
struct DocumentationSnippetTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // DocumentationTests
        .deletingLastPathComponent()  // ConformanceTests
        .deletingLastPathComponent()

    /// The Swift files that hold snippets, relative to the package root.
    static let snippetFiles =
        [
            "ConformanceTests/DocumentationTests/ReadmeSnippets.swift",
            "ConformanceTests/DocumentationTests/DocCSnippets.swift",
            "ConformanceTests/DocumentationTests/MigrationSnippets.swift",
            "ConformanceTests/ScenarioTests/CheckoutWorkflowTests.swift",
        ]
        // Every design's scenarios, which the design review shows in every style.
        + Design.allCases.map { "ConformanceTests/ScenarioTests/\($0.rawValue)/\($0.rawValue)Scenarios.swift" }
        + [
            // The example package that runs the Promises/A+ suite against a promise type of its own
            // (the suite's DocC article shows its adapter and tests).
            "Examples/TinyPromise/Sources/TinyPromise/TinyPromise.swift",
            "Examples/TinyPromise/Tests/TinyPromiseTests/TinyAdapter.swift",
            "Examples/TinyPromise/Tests/TinyPromiseTests/TinyPromiseAPlusTests.swift",
            "Examples/TinyPromise/Tests/TinyPromiseTests/TinyPromiseXCTests.swift",
            // Its costs, through the cost products (their DocC article shows them).
            "Examples/TinyPromise/Sources/TinyPromiseCosts/TinyPromiseCosts.swift",
            "Examples/TinyPromise/Sources/TinyPromiseAllocations/TinyPromiseAllocations.swift",
            "Examples/TinyPromise/Sources/TinyPromiseInstructions/TinyPromiseInstructions.swift",
            "Examples/TinyPromise/Tests/TinyPromiseCostTests/TinyPromiseCostTests.swift",
            // And its benchmarks in ordo-one/benchmark, a package of its own.
            "Examples/TinyPromise/Benchmarks/Benchmarks/TinyPromiseBenchmarks/TinyPromiseBenchmarks.swift",
        ]

    /// The README, every report and every DocC article (the modules' under `Implementations/`,
    /// the suite's under `ConformanceTests/`, the cost product's under `Benchmarks/`).
    static func documentationFiles() throws -> [String] {
        let fileManager = FileManager.default
        var files = ["README.md"]
        files += try fileManager.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Reports").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "Reports/\($0)" }
        for folder in ["Implementations", "ConformanceTests", "Benchmarks"] {
            let modules = packageRoot.appendingPathComponent(folder)
            for module in try fileManager.contentsOfDirectory(atPath: modules.path).sorted() {
                let moduleFolder = modules.appendingPathComponent(module)
                for catalog in (try? fileManager.contentsOfDirectory(atPath: moduleFolder.path)) ?? []
                where catalog.hasSuffix(".docc") {
                    let articles = try fileManager.contentsOfDirectory(
                        atPath: moduleFolder.appendingPathComponent(catalog).path)
                    files += articles.filter { $0.hasSuffix(".md") }.sorted().map {
                        "\(folder)/\(module)/\(catalog)/\($0)"
                    }
                }
            }
        }
        return files
    }

    static func read(_ relativePath: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(relativePath), encoding: .utf8)
    }

    static func allSnippets() throws -> [Snippet] {
        try snippetFiles.flatMap { Snippet.all(in: try read($0)) }
    }

    @Test("the snippet files hold the snippets this check expects")
    func snippetsFound() throws {
        let names = try Self.allSnippets().map(\.name)
        #expect(Set(names).count == names.count, "duplicate snippet names: \(names)")
        #expect(names.contains("review-fbl"))
        #expect(names.contains("checkout-qn"))
        #expect(names.contains("docc-testsupport-deterministic"))
        #expect(names.contains("aplus-adapter"))
    }

    @Test("every Swift code block of the README, the reports and the DocC articles is made of compiled snippets")
    func blocksAreCompiled() throws {
        let snippets = try Self.allSnippets().sorted { $0.code.count > $1.code.count }
        var used = Set<String>()
        var blockCount = 0
        for file in try Self.documentationFiles() {
            for (index, block) in swiftCodeBlocks(in: try Self.read(file)).enumerated() {
                blockCount += 1
                var rest = block
                for snippet in snippets where rest.contains(snippet.code) {
                    rest = rest.replacingOccurrences(of: snippet.code, with: "")
                    used.insert(snippet.name)
                }
                #expect(
                    rest.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
                    "\(file), Swift block \(index + 1): not compiled in a snippet. Fix: put the code between `// snippet: <name>` and `// end-snippet` in one of \(Self.snippetFiles.joined(separator: ", ")), and show it verbatim. Rule: CONTRIBUTING.md#snippets. Not found:\n\(rest)"
                )
            }
        }
        #expect(blockCount >= 14)
        let unused = Set(snippets.map(\.name)).subtracting(used)
        #expect(
            unused.isEmpty,
            "snippets no documentation block shows: \(unused.sorted()). Fix: show each in the documentation, or delete it. Rule: CONTRIBUTING.md#snippets"
        )
    }

    /// The package that compiles and runs the designs' snippets with Xcode 26's defaults.
    static let xcodeDefaultsFiles = [
        "Examples/XcodeDefaults/Sources/XcodeDefaults/ReadmeSnippets.swift",
        "Examples/XcodeDefaults/Sources/XcodeDefaults/DocCSnippets.swift",
    ]

    @Test("the Xcode-defaults package holds every design snippet, each identical to its twin here")
    func xcodeDefaultsTwins() throws {
        let twins = try Self.xcodeDefaultsFiles.flatMap { Snippet.all(in: try Self.read($0)) }
        let originals = Dictionary(try Self.allSnippets().map { ($0.name, $0.code) }) { first, _ in first }
        let designSnippets = [
            "review-fbl", "review-ay", "review-qx", "review-qn", "readme-main-actor", "readme-command-line",
            "docc-fbl", "docc-ay", "docc-qx", "docc-qn", "docc-qn-remote",
        ]
        #expect(twins.map(\.name).sorted() == designSnippets.sorted())
        for twin in twins {
            #expect(twin.code == originals[twin.name], "\(twin.name): differs from the documentation's snippet")
        }
    }

    @Test("the README's command-line snippet runs: its main-queue callback is called")
    func commandLineSnippetRuns() async throws {
        try await CommandLineReadme.main()
        #expect(CommandLineReadme.shown.withLock { $0 } == ["o-1"])
    }

    @Test("the checker finds a block's code, and rejects a block with code no snippet holds")
    func checkerCanFail() {
        let source = ["struct S {", "    // " + "snippet: one", "    let a = 1", "    // " + "end-snippet", "}"]
        let snippets = Snippet.all(in: source.joined(separator: "\n"))
        #expect(snippets.map(\.code) == ["let a = 1"])
        let markdown = "Text\n```swift\nimport X\n\nlet a = 1\n```\nand\n```swift\nlet b = 2\n```\n"
        #expect(swiftCodeBlocks(in: markdown) == ["let a = 1", "let b = 2"])
    }
}

/// Compiled code between a `// snippet: NAME` line and the next `// end-snippet` line.
struct Snippet {
    let name: String
    /// The lines without their common indentation and without `///` doc-comment lines.
    let code: String

    static func all(in source: String) -> [Snippet] {
        // The markers are built, so that these lines are not markers themselves.
        let (start, end) = ("// " + "snippet: ", "// " + "end-snippet")
        var snippets: [Snippet] = []
        var current: (name: String, lines: [Substring])?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(start) {
                current = (String(trimmed.dropFirst(start.count)), [])
            } else if trimmed == end, let finished = current {
                snippets.append(Snippet(name: finished.name, code: dedented(finished.lines)))
                current = nil
            } else if current != nil, !trimmed.hasPrefix("///") {
                current!.lines.append(line)
            }
        }
        return snippets
    }

    private static func dedented(_ lines: [Substring]) -> String {
        let indents = lines.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix { $0 == " " }.count }
        let indent = indents.min() ?? 0
        return lines.map { $0.allSatisfy(\.isWhitespace) ? "" : String($0.dropFirst(indent)) }
            .joined(separator: "\n")
            .trimmingCharacters(in: .newlines)
    }
}

/// The contents of each ```` ```swift ```` block, without its `import` lines, trimmed.
func swiftCodeBlocks(in markdown: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
        if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
            current = []
        } else if let lines = current, line.trimmingCharacters(in: .whitespaces) == "```" {
            blocks.append(
                lines.filter { !$0.hasPrefix("import ") }.joined(separator: "\n")
                    .trimmingCharacters(in: .whitespacesAndNewlines))
            current = nil
        } else if current != nil {
            current!.append(line)
        }
    }
    return blocks
}
