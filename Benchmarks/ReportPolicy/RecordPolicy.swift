public import CompareKit
import DesignRegistry
public import Foundation

/// Which recorded runs can speak for which contenders: a record measured the code of its commit,
/// so it is left out for a design whose code has changed since, and for a contender whose
/// measurement the tool has changed since (``measurementChanges``). Nothing else leaves a record
/// out: a claim a record contradicts is reworded, never excused.
public struct RecordPolicy: Sendable {
    /// A change to what the tool measures for some contenders, from a commit on.
    public struct MeasurementChange: Sendable {
        /// The contenders it concerns; empty for every contender.
        public var contenders: [String]
        /// The scenario ids it concerns (`memory` for the bytes of a pending promise).
        public var scenarios: [String]
        /// The commit that made it: a record of an earlier commit measured the old way.
        public var since: String
        public var why: String
    }

    /// The changes to what `compare` measures, oldest first. Add one when a contender's work in a
    /// scenario changes (not when its code is only rearranged).
    public static let measurementChanges = [
        MeasurementChange(
            contenders: [], scenarios: ["memory"], since: "8f14a55",
            why: "bytes are the heap's usable sizes since; before, the sizes requested"),
        MeasurementChange(
            contenders: ["Combine"], scenarios: ["workflow", "checkout", "cancel"], since: "8f14a55",
            why: "Combine's workflows settle their futures on the serial queue, and its cancellation runs there"),
        MeasurementChange(
            contenders: ["Swift concurrency"], scenarios: ["workflow", "checkout"], since: "92d551e",
            why: "Swift concurrency's workflows resume on an actor's serial queue after each call, as raw GCD's do"),
        MeasurementChange(
            contenders: [], scenarios: ["fairness"], since: "1f2fdac",
            why: "the fairness cell's waits are those of blocks sent while the chain drains, not while it is built"),
    ]

    /// The folders every design's code includes beside its own module.
    static let sharedFolders = ["Implementations/PromiseRuntime", "Implementations/SharedPromiseTypes"]

    /// The package root: a git checkout, or not.
    public var root: URL
    private let cache = ResultCache()

    public init(root: URL) { self.root = root }

    /// Whether `root` is a git checkout with history, so records can be placed in it.
    public var hasHistory: Bool { git(["rev-parse", "--verify", "HEAD^{commit}"]) != nil }

    /// The exclusion rule for ``Evidence``.
    public var exclusion: Evidence.Exclusion {
        { record, contenders, scenario in self.reason(leaving: record, outFor: contenders, on: scenario) }
    }

    /// Why `record` cannot speak for `contenders` on `scenario`, or `nil` when it can.
    public func reason(leaving record: RunRecord, outFor contenders: [String], on scenario: String) -> String? {
        let commit = Self.baseCommit(record.run.commit)
        for change in Self.measurementChanges
        where change.scenarios.contains(scenario)
            && (change.contenders.isEmpty || change.contenders.contains(where: contenders.contains))
            && !includes(commit, change.since)
        {
            return "measured before \(change.since): \(change.why)"
        }
        for name in contenders {
            guard let design = Design(rawValue: name) else { continue }
            let changed = changedFiles(of: design, since: commit)
            if !changed.isEmpty {
                return "\(name)'s code changed since \(commit): \(changed.joined(separator: ", "))"
            }
        }
        return nil
    }

    /// What of the design's code, comments, blank lines and layout aside, differs between `commit` and the
    /// working tree: the Swift files of its module that changed, and the declarations of the shared
    /// folders it uses that changed (wherever they moved); everything when `commit` is not in this
    /// checkout's history.
    func changedFiles(of design: Design, since commit: String) -> [String] {
        cache.value(for: "\(design.rawValue)@\(commit)") {
            guard git(["cat-file", "-e", commit + "^{commit}"]) != nil else {
                return ["(commit \(commit) is not in this checkout)"]
            }
            let module = "Implementations/\(design.moduleName)"
            let ownFiles = swiftFiles(changedIn: [module], since: commit).filter { path in
                Self.tokens(of: git(["show", "\(commit):\(path)"]) ?? "") != Self.tokens(of: current(path))
            }
            let ownSource = swiftFiles(in: module, at: nil).map(current).joined(separator: "\n")
            let before = Self.declarations(
                of: Self.sharedFolders.flatMap { swiftFiles(in: $0, at: commit) }.map {
                    git(["show", "\(commit):\($0)"]) ?? ""
                })
            let after = Self.declarations(
                of: Self.sharedFolders.flatMap { swiftFiles(in: $0, at: nil) }.map(current))
            let shared = Set(before.keys).union(after.keys).sorted().filter { name in
                before[name] != after[name] && Self.uses(ownSource, name)
            }
            return ownFiles + shared.map { "the shared `\($0)`" }
        }
    }

    /// The Swift files under `folder` at `commit`, or in the working tree when `commit` is `nil`.
    private func swiftFiles(in folder: String, at commit: String?) -> [String] {
        guard let commit else {
            let names =
                FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)?
                .compactMap { $0 as? String } ?? []
            return names.filter { $0.hasSuffix(".swift") }.sorted().map { "\(folder)/\($0)" }
        }
        return (git(["ls-tree", "-r", "--name-only", commit, "--", folder]) ?? "").split(separator: "\n")
            .map(String.init).filter { $0.hasSuffix(".swift") }
    }

    /// The Swift files under `folders` that differ between `commit` and the working tree.
    private func swiftFiles(changedIn folders: [String], since commit: String) -> [String] {
        (git(["diff", "--name-only", commit, "--"] + folders) ?? "").split(separator: "\n").map(String.init)
            .filter { $0.hasSuffix(".swift") }
    }

    private func current(_ path: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    /// The top-level declarations of `sources` by the name they declare (an extension by the type it
    /// extends), each with its code: so a declaration that moved to another file is unchanged.
    static func declarations(of sources: [String]) -> [String: [String]] {
        let header = try! NSRegularExpression(
            pattern: #"^(?:@\w+(?:\([^)]*\))?\s+|(?:public|package|internal|fileprivate|private|final|open)\s+)*"#
                + #"(?:struct|enum|class|protocol|actor|extension|func|typealias|let|var)\s+([A-Za-z_]\w*)"#)
        var declarations: [String: [String]] = [:]
        for source in sources {
            var name: String?
            for line in code(of: source) {
                let range = NSRange(line.startIndex..., in: line)
                if let match = header.firstMatch(in: line, range: range),
                    let found = Range(match.range(at: 1), in: line),
                    !line.hasPrefix(" ")
                {
                    name = String(line[found])
                }
                if let name { declarations[name, default: []].append(line) }
            }
        }
        return declarations
    }

    /// Whether `source` mentions `name` as a word.
    static func uses(_ source: String, _ name: String) -> Bool {
        source.range(of: "\\b\(name)\\b", options: .regularExpression) != nil
    }

    /// The title of benchmarks.md's row on the designs' code since the run.
    public static let codeSinceRunTitle = "Design code since the run"

    /// The row's text: which design's code (comments and layout aside) has changed since the run's commit,
    /// file by file, or that none has; `nil` outside a git checkout with that commit.
    public func codeSinceRun(_ commit: String) -> String? {
        let commit = Self.baseCommit(commit)
        guard hasHistory, git(["cat-file", "-e", commit + "^{commit}"]) != nil else { return nil }
        let changed = Design.allCases.compactMap { design -> String? in
            let files = changedFiles(of: design, since: commit)
            guard !files.isEmpty else { return nil }
            let names = files.map { $0.hasPrefix("the shared") ? $0 : "`\(($0 as NSString).lastPathComponent)`" }
            return "\(design.rawValue): \(names.joined(separator: ", "))"
        }
        return changed.isEmpty
            ? "unchanged for every design (comments and layout aside): the run measured the code of this report"
            : "changed (comments and layout aside) in " + changed.joined(separator: "; ")
    }

    /// Whether `commit` includes `change` (is it or comes after it).
    func includes(_ commit: String, _ change: String) -> Bool {
        cache.value(for: "\(change)<=\(commit)") {
            git(["merge-base", "--is-ancestor", change, commit]) != nil ? ["yes"] : []
        } == ["yes"]
    }

    /// A Swift file's code with its layout aside: ``code(of:)`` without any whitespace, so that a
    /// line the formatter breaks or joins is no change. (A change to the spaces inside a string
    /// literal goes unseen: no design's measured work depends on one.)
    static func tokens(of source: String) -> String {
        String(code(of: source).joined().filter { !$0.isWhitespace })
    }

    /// A Swift file's code: its lines without comments or blank lines, trimmed at the end, so that a
    /// change to the comments alone is no change. (Indentation is kept: it tells a top-level
    /// declaration from a member.)
    static func code(of source: String) -> [String] {
        var lines: [String] = []
        var inBlockComment = false
        for line in source.split(separator: "\n") {
            let indent = line.prefix { $0 == " " }
            var text = line.trimmingCharacters(in: .whitespaces)
            if inBlockComment {
                guard let end = text.range(of: "*/") else { continue }
                text = String(text[end.upperBound...]).trimmingCharacters(in: .whitespaces)
                inBlockComment = false
            }
            if text.hasPrefix("/*") && !text.contains("*/") {
                inBlockComment = true
                continue
            }
            if text.hasPrefix("//") || text.isEmpty { continue }
            // A trailing comment, on a line that has no string literal it could be part of.
            if !text.contains("\""), let comment = text.range(of: " //") {
                text = String(text[..<comment.lowerBound])
            }
            lines.append(indent + text)
        }
        return lines
    }

    /// `5bee67c` for `5bee67c-dirty`.
    static func baseCommit(_ commit: String) -> String {
        commit.hasSuffix("-dirty") ? String(commit.dropLast("-dirty".count)) : commit
    }

    private func git(_ arguments: [String]) -> String? {
        Host.output(of: ["git", "-C", root.path] + arguments)
    }
}

/// Answers computed once per process: records ask the same git questions many times.
private final class ResultCache: @unchecked Sendable {
    // `lock` guards `values`.
    private let lock = NSLock()
    private var values: [String: [String]] = [:]

    func value(for key: String, _ compute: () -> [String]) -> [String] {
        if let value = lock.withLock({ values[key] }) { return value }
        let value = compute()
        lock.withLock { values[key] = value }
        return value
    }
}
