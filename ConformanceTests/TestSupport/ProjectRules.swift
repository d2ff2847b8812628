public import Foundation

/// The package's own files, for the tests that check the project's rules (the layout, the
/// checklist for a design, the documentation's facts and claims).
public enum PackageFiles {
    /// The package root, found from this file (`ConformanceTests/TestSupport/ProjectRules.swift`).
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TestSupport
        .deletingLastPathComponent()  // ConformanceTests
        .deletingLastPathComponent()  // the package root

    /// The text of `path`, relative to the root.
    public static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Whether `path`, relative to the root, exists.
    public static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }

    /// The names of the folders directly inside `path` (hidden ones aside).
    public static func subfolders(of path: String) throws -> Set<String> {
        let folder = root.appendingPathComponent(path)
        return Set(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { name in
                var isFolder: ObjCBool = false
                return !name.hasPrefix(".")
                    && FileManager.default.fileExists(
                        atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder)
                    && isFolder.boolValue
            })
    }

    /// Every file under `folder` (relative to the root) whose name ends with `suffix`, relative to
    /// the root and sorted; hidden and build folders are skipped.
    public static func files(under folder: String = ".", suffix: String) -> [String] {
        let base = root.appendingPathComponent(folder).standardizedFileURL
        guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var found: [String] = []
        while let path = enumerator.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            if name.hasPrefix(".") {
                enumerator.skipDescendants()
                continue
            }
            if path.hasSuffix(suffix) { found.append(folder == "." ? path : "\(folder)/\(path)") }
        }
        return found.sorted()
    }
}

/// A rule of the project broken at a place, as the rule tests report it: where, what, how to fix
/// it, and where CONTRIBUTING states the rule, so that a failure reads as an instruction.
///
/// ```text
/// README.md:42: "faster" compares without a claim. Fix: add `<!-- claim: … -->` after the
/// sentence, or rephrase it. Rule: CONTRIBUTING.md#claims
/// ```
public struct RuleBreak: CustomStringConvertible, Sendable {
    /// The file, relative to the package root.
    public var file: String
    /// The line (1-based), when the break is at one.
    public var line: Int?
    /// What is wrong, in a clause.
    public var problem: String
    /// What to do about it.
    public var fix: String
    /// The anchor of the rule in CONTRIBUTING.md.
    public var rule: String

    public init(file: String, line: Int? = nil, problem: String, fix: String, rule: String) {
        self.file = file
        self.line = line
        self.problem = problem
        self.fix = fix
        self.rule = rule
    }

    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(problem). Fix: \(fix). Rule: CONTRIBUTING.md#\(rule)"
    }
}

/// A program the tests run: one of the package's executables, which `swift build` puts next to the
/// test bundle, or a command found on the `PATH`.
public struct ToolRun: Sendable {
    /// The exit status.
    public var status: Int32
    /// What it wrote to its standard output (and its standard error, when merged).
    public var output: Data

    /// The text of ``output``.
    public var text: String { String(decoding: output, as: UTF8.self) }

    /// The executable `name` of this package, built next to the test bundle.
    public static func builtTool(_ name: String) throws -> URL {
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: tool.path) else { throw Missing(path: tool.path) }
        return tool
    }

    /// Runs `executable` with `arguments` and waits for it to exit; standard error is merged into
    /// the output when `mergingErrors`, and dropped otherwise.
    public static func run(_ executable: URL, _ arguments: [String], mergingErrors: Bool = false) throws -> ToolRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = mergingErrors ? pipe : FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ToolRun(status: process.terminationStatus, output: data)
    }

    /// Runs the command `name`, found on the `PATH`, as ``run(_:_:mergingErrors:)`` does.
    public static func command(_ name: String, _ arguments: [String], mergingErrors: Bool = false) throws -> ToolRun {
        try run(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, mergingErrors: mergingErrors)
    }

    /// A package executable that is not built.
    public struct Missing: Error, CustomStringConvertible {
        public let path: String
        public var description: String {
            "no \((path as NSString).lastPathComponent) at \(path): build the package (`swift build`) first"
        }
    }
}
