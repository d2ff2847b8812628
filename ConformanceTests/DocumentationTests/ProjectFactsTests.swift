import DesignRegistry
import Foundation
import Testing

/// The facts the documentation states about the project itself, checked or generated: every
/// relative link and anchor of every Markdown file resolves, CONTRIBUTING's layout names every
/// folder and only existing ones, its CI steps are `.ci/run`'s, and the design review's table of
/// sizes is counted from the sources. `UPDATE_REPORTS=1 swift test --filter ProjectFactsTests`
/// rewrites the generated parts.
@Suite("Documentation: the project's facts")
struct ProjectFactsTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let updating = ProcessInfo.processInfo.environment["UPDATE_REPORTS"] == "1"

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every file under `folder` (relative to the root) whose name ends with `suffix`, sorted,
    /// build folders and hidden folders aside.
    static func files(under folder: String = ".", suffix: String) -> [String] {
        let base = root.appendingPathComponent(folder).standardizedFileURL
        guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var found: [String] = []
        while let path = enumerator.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            if name.hasPrefix(".") || name.hasPrefix(".build") {
                enumerator.skipDescendants()
                continue
            }
            if path.hasSuffix(suffix) { found.append(folder == "." ? path : "\(folder)/\(path)") }
        }
        return found.sorted()
    }

    // MARK: Links

    /// GitHub's anchor of a heading: lower case, punctuation but hyphens and underscores dropped,
    /// spaces to hyphens.
    static func anchor(_ heading: String) -> String {
        let text = heading.replacingOccurrences(of: #"\[([^\]]*)\]\([^)]*\)"#, with: "$1", options: .regularExpression)
        return String(
            text.lowercased().unicodeScalars.compactMap { scalar -> Character? in
                if scalar == " " { return "-" }
                if CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_" {
                    return Character(scalar)
                }
                return nil
            })
    }

    /// The anchors of a Markdown text's headings, numbered as GitHub numbers repeats.
    static func anchors(of markdown: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        var inCode = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inCode.toggle() }
            guard !inCode, line.hasPrefix("#") else { continue }
            let base = anchor(line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces))
            let count = seen[base, default: 0]
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
            seen[base] = count + 1
        }
        return anchors
    }

    @Test("every relative link and anchor of every Markdown file resolves")
    func links() throws {
        let link = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        var broken: [String] = []
        // The golden files are reports rendered for a test, linking what sits beside a real one.
        for file in Self.files(suffix: ".md") where !file.contains("/Golden/") {
            let text = try Self.read(file)
            let folder = (file as NSString).deletingLastPathComponent
            var inCode = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("```") { inCode.toggle() }
                if inCode { continue }
                let line = String(line)
                for match in link.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                    let target = String(line[Range(match.range(at: 1), in: line)!])
                    if target.contains("://") || target.hasPrefix("mailto:") || target.hasPrefix("<") { continue }
                    let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                    let path = String(parts[0])
                    let resolved =
                        path.isEmpty
                        ? file
                        : ((folder as NSString).appendingPathComponent(path) as NSString)
                            .standardizingPath
                    var isFolder: ObjCBool = false
                    guard
                        FileManager.default.fileExists(
                            atPath: Self.root.appendingPathComponent(resolved).path, isDirectory: &isFolder)
                    else {
                        broken.append("\(file): \(target): no such file")
                        continue
                    }
                    guard parts.count == 2, !isFolder.boolValue, resolved.hasSuffix(".md") else { continue }
                    let fragment = String(parts[1])
                    if !Self.anchors(of: try Self.read(resolved)).contains(fragment) {
                        broken.append("\(file): \(target): no heading with that anchor")
                    }
                }
            }
        }
        #expect(broken.isEmpty, "\(broken.count) broken links:\n\(broken.joined(separator: "\n"))")
    }

    // MARK: Layout and CI

    @Test("CONTRIBUTING's layout names every folder of the package's four trees, and only folders that exist")
    func layout() throws {
        let contributing = try Self.read("CONTRIBUTING.md")
        let block = try #require(
            contributing.components(separatedBy: "```text\nPackage.swift").dropFirst().first?
                .components(separatedBy: "```").first)
        var listed: [String] = []
        var parent = ""
        for line in block.split(separator: "\n") {
            guard let name = line.split(separator: " ").first, name.hasSuffix("/") else { continue }
            if line.hasPrefix("  ") { listed.append(parent + name.dropLast()) } else { parent = String(name) }
            if !line.hasPrefix(" ") { listed.append(String(name.dropLast())) }
        }
        for path in listed {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(
                atPath: Self.root.appendingPathComponent(path).path, isDirectory: &isFolder)
            #expect(exists && isFolder.boolValue, "CONTRIBUTING names \(path)/, which is not a folder")
        }
        for tree in ["Implementations", "ConformanceTests", "Benchmarks", "Examples"] {
            let folders = try FileManager.default.contentsOfDirectory(
                atPath: Self.root.appendingPathComponent(tree).path
            )
            .filter { !$0.hasPrefix(".") }
            .filter { name in
                var isFolder: ObjCBool = false
                let exists = FileManager.default.fileExists(
                    atPath: Self.root.appendingPathComponent("\(tree)/\(name)").path, isDirectory: &isFolder)
                return exists && isFolder.boolValue
            }
            for folder in folders {
                #expect(listed.contains("\(tree)/\(folder)"), "CONTRIBUTING's layout does not name \(tree)/\(folder)/")
            }
        }
    }

    /// The steps `.ci/run` prints, in order.
    static func ciSteps() throws -> [String] {
        try read(".ci/run").split(separator: "\n").compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("step \"") else { return nil }
            return trimmed.dropFirst("step \"".count).prefix { $0 != "\"" }.description
        }
    }

    @Test("CONTRIBUTING lists CI's steps as .ci/run runs them")
    func ciStepsListed() throws {
        let steps = try Self.ciSteps()
        #expect(steps.count >= 7, "\(steps)")
        let list = steps.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n")
        try Self.checkGenerated(in: "CONTRIBUTING.md", marker: "CI steps", content: list)
    }

    // MARK: Sizes

    /// Non-blank lines that are not comments, and all lines, of the Swift files under `folder` (or
    /// of the one file it names).
    static func size(of folder: String) throws -> (code: Int, all: Int, files: Int) {
        let files = folder.hasSuffix(".swift") ? [folder] : Self.files(under: folder, suffix: ".swift")
        var code = 0
        var all = 0
        for file in files {
            let lines = try read(file).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            all += lines.count
            code +=
                lines.filter { line in
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    return !trimmed.isEmpty && !trimmed.hasPrefix("//")
                }.count
        }
        return (code, all, files.count)
    }

    /// The `@Test`s of the Swift files under `folder`.
    static func testCount(under folder: String) throws -> Int {
        try files(under: folder, suffix: ".swift").reduce(0) { count, file in
            count + (try read(file)).components(separatedBy: "@Test").count - 1
        }
    }

    @Test("the design review's sizes are the sources' own")
    func sizes() throws {
        var table = "| | " + Design.allCases.map(\.rawValue).joined(separator: " | ") + " |\n"
        table += "|---|" + String(repeating: "---:|", count: Design.allCases.count) + "\n"
        var code = "| Code lines (non-blank, non-comment / all) in files |"
        var tests = "| Tests of its own (`@Test`s in its test target and its scenario folder) |"
        var adapter = "| Adapter to the Promises/A+ suite, code lines |"
        for design in Design.allCases {
            let size = try Self.size(of: "Implementations/\(design.moduleName)")
            code += " \(size.code) / \(size.all) in \(size.files) |"
            let own = try Self.testCount(under: "ConformanceTests/\(design.moduleName)Tests")
            let scenarios = try Self.testCount(under: "ConformanceTests/ScenarioTests/\(design.rawValue)")
            tests += " \(own + scenarios) |"
            adapter +=
                " \(try Self.size(of: "Implementations/DesignRegistry/Adapters/\(design.rawValue)Adapter.swift").code) |"
        }
        let runtime = try Self.size(of: "Implementations/PromiseRuntime")
        let shared = try Self.size(of: "Implementations/SharedPromiseTypes")
        table += [code, tests, adapter].joined(separator: "\n") + "\n\n"
        table += "Shared by the designs and counted in none: `PromiseRuntime`, \(runtime.code) / \(runtime.all) "
        table += "lines in \(runtime.files) files; `SharedPromiseTypes`, \(shared.code) / \(shared.all) in "
        table += "\(shared.files). Every design also passes the 702 Promises/A+ cases and the reliability "
        table += "tests, run for each registered design."
        try Self.checkGenerated(in: "Reports/design-review.md", marker: "sizes", content: table)
    }

    /// The lab serves the product: the benchmark tool, its report writers and their tests together
    /// stay within the designs' own code, so that the house grows around the designs, not the lab.
    @Test("Benchmarks/ has no more code lines than the designs together")
    func labNoBiggerThanTheDesigns() throws {
        let designs = try Design.allCases.reduce(0) {
            $0 + (try Self.size(of: "Implementations/\($1.moduleName)").code)
        }
        let lab = try Self.size(of: "Benchmarks").code
        #expect(lab <= designs, "Benchmarks/ has \(lab) code lines, the designs \(designs)")
    }

    // MARK: Generated sections

    /// Checks that `file` holds `content` between `<!-- BEGIN generated {marker} -->` and
    /// `<!-- END generated -->`, or writes it there when updating.
    static func checkGenerated(in file: String, marker: String, content: String) throws {
        let text = try read(file)
        let begin = "<!-- BEGIN generated \(marker) -->"
        let start = try #require(text.range(of: begin), "\(file) has no '\(begin)'")
        let end = try #require(text.range(of: "<!-- END generated -->", range: start.upperBound..<text.endIndex))
        let expected = "\(begin)\n\(content)\n"
        if updating {
            try Data(text.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: expected).utf8)
                .write(to: root.appendingPathComponent(file))
            return
        }
        #expect(
            String(text[start.lowerBound..<end.lowerBound]) == expected,
            "\(file)'s \(marker) are not the project's: rerun with UPDATE_REPORTS=1")
    }
}
