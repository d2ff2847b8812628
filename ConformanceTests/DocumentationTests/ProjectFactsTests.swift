import DesignRegistry
import Foundation
import TestSupport
import Testing

/// The facts the documentation states about the project itself, checked or generated: every
/// relative link and anchor of every Markdown file resolves, CONTRIBUTING's layout names every
/// folder and only existing ones, its CI steps are `.ci/run`'s, and the design review's table of
/// sizes is counted from the sources. `UPDATE_REPORTS=1 swift test --filter ProjectFactsTests`
/// rewrites the generated parts.
@Suite("Documentation: the project's facts")
struct ProjectFactsTests {
    static let root = PackageFiles.root
    static let updating = ProcessInfo.processInfo.environment["UPDATE_REPORTS"] == "1"

    static func read(_ path: String) throws -> String { try PackageFiles.read(path) }

    static func files(under folder: String = ".", suffix: String) -> [String] {
        PackageFiles.files(under: folder, suffix: suffix)
    }

    static func breaks(_ found: [RuleBreak]) -> Comment {
        Comment(rawValue: "\(found.count) broken:\n" + found.map(\.description).joined(separator: "\n"))
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
        var broken: [RuleBreak] = []
        // The golden files are reports rendered for a test, linking what sits beside a real one.
        for file in Self.files(suffix: ".md") where !file.contains("/Golden/") {
            let text = try Self.read(file)
            let folder = (file as NSString).deletingLastPathComponent
            var inCode = false
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
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
                        broken.append(
                            RuleBreak(
                                file: file, line: number + 1, problem: "the link \(target) leads to no file",
                                fix: "correct the path (relative to \(file)'s folder) or drop the link", rule: "links"))
                        continue
                    }
                    guard parts.count == 2, !isFolder.boolValue, resolved.hasSuffix(".md") else { continue }
                    let fragment = String(parts[1])
                    if !Self.anchors(of: try Self.read(resolved)).contains(fragment) {
                        broken.append(
                            RuleBreak(
                                file: file, line: number + 1, problem: "the link \(target) names no heading there",
                                fix: "use the heading's anchor (lower case, hyphens for spaces)", rule: "links"))
                    }
                }
            }
        }
        #expect(broken.isEmpty, Self.breaks(broken))
    }

    // MARK: Layout and CI

    /// The folders CONTRIBUTING's layout names, with `<Module>` and `<Name>` expanded to every
    /// registered design's module and short name.
    static func listedFolders() throws -> [(path: String, line: Int)] {
        let contributing = try Self.read("CONTRIBUTING.md")
        let opening = "```text\nPackage.swift"
        let start = try #require(contributing.range(of: opening), "CONTRIBUTING.md has no layout block")
        let firstLine = contributing[..<start.upperBound].split(separator: "\n", omittingEmptySubsequences: false).count
        let block = contributing[start.upperBound...].components(separatedBy: "```").first ?? ""
        var listed: [(path: String, line: Int)] = []
        var parent = ""
        for (index, line) in block.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let name = line.split(separator: " ").first, name.hasSuffix("/") else { continue }
            let path: String
            if line.hasPrefix("  ") {
                path = parent + name.dropLast()
            } else {
                parent = String(name)
                path = String(name.dropLast())
            }
            for design in Design.allCases {
                let expanded = path.replacingOccurrences(of: "<Module>", with: design.moduleName)
                    .replacingOccurrences(of: "<Name>", with: design.rawValue)
                listed.append((expanded, firstLine + index))
                if expanded == path { break }
            }
        }
        return listed
    }

    @Test("CONTRIBUTING's layout names every folder of the package's four trees, and only folders that exist")
    func layout() throws {
        let listed = try Self.listedFolders()
        var broken: [RuleBreak] = []
        for (path, line) in listed {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(
                atPath: Self.root.appendingPathComponent(path).path, isDirectory: &isFolder)
            if !(exists && isFolder.boolValue) {
                broken.append(
                    RuleBreak(
                        file: "CONTRIBUTING.md", line: line,
                        problem: "the layout names \(path)/, which is not a folder",
                        fix: "drop the line, or correct the name", rule: "layout"))
            }
        }
        for tree in ["Implementations", "ConformanceTests", "Benchmarks", "Examples"] {
            for folder in try PackageFiles.subfolders(of: tree).sorted()
            where !listed.contains(where: { $0.path == "\(tree)/\(folder)" }) {
                broken.append(
                    RuleBreak(
                        file: "CONTRIBUTING.md", problem: "the layout does not name \(tree)/\(folder)/",
                        fix:
                            "add a line for it under \(tree)/ saying what it holds (`<Module>` stands for every design)",
                        rule: "layout"))
            }
        }
        #expect(broken.isEmpty, Self.breaks(broken))
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
        var designsCode = 0
        for design in Design.allCases {
            let size = try Self.size(of: "Implementations/\(design.moduleName)")
            designsCode += size.code
            code += " \(size.code) / \(size.all) in \(size.files) |"
            let own = try Self.testCount(under: "ConformanceTests/\(design.moduleName)Tests")
            let scenarios = try Self.testCount(under: "ConformanceTests/ScenarioTests/\(design.rawValue)")
            tests += " \(own + scenarios) |"
            adapter +=
                " \(try Self.size(of: "ConformanceTests/DesignRegistry/Adapters/\(design.rawValue)Adapter.swift").code) |"
        }
        let runtime = try Self.size(of: "Implementations/PromiseRuntime")
        let shared = try Self.size(of: "Implementations/SharedPromiseTypes")
        let suite = try Self.size(of: "ConformanceTests")
        let lab = try Self.size(of: "Benchmarks")
        table += [code, tests, adapter].joined(separator: "\n") + "\n\n"
        table += "Shared by the designs and counted in none: `PromiseRuntime`, \(runtime.code) / \(runtime.all) "
        table += "lines in \(runtime.files) files; `SharedPromiseTypes`, \(shared.code) / \(shared.all) in "
        table += "\(shared.files). Every design also passes the 714 Promises/A+ cases and the reliability "
        table += "tests, run for each registered design.\n\n"
        table += "Around them, for scale: the designs together are \(designsCode) code lines; `ConformanceTests/` "
        table += "(the Promises/A+ suite, the registry, every test) \(suite.code) / \(suite.all) in \(suite.files) "
        table += "files; the lab, all of `Benchmarks/` (the `compare` tool, its kit and policy, the cost counters "
        table += "and operations, the floor prototypes, the claim checks and their tests), \(lab.code) / "
        table += "\(lab.all) in \(lab.files) files."
        try Self.checkGenerated(in: "Reports/design-review.md", marker: "sizes", content: table)
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
        let line = text[..<start.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(
            String(text[start.lowerBound..<end.lowerBound]) == expected,
            Comment(
                rawValue: RuleBreak(
                    file: file, line: line, problem: "the generated \(marker) are not the project's",
                    fix: "run `UPDATE_REPORTS=1 swift test --filter ProjectFactsTests` and commit the result",
                    rule: "generated-sections"
                ).description))
    }
}
