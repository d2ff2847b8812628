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
            contenders: [], scenarios: [ProseClaims.memory], since: "8f14a55",
            why: "bytes are the heap's usable sizes since; before, the sizes requested"),
        MeasurementChange(
            contenders: ["Combine"], scenarios: ["workflow", "checkout", "cancel"], since: "8f14a55",
            why: "Combine's workflows settle their futures on the serial queue, and its cancellation runs there"),
        MeasurementChange(
            contenders: ["Swift concurrency"], scenarios: ["workflow", "checkout"], since: "92d551e",
            why: "Swift concurrency's workflows resume on an actor's serial queue after each call, as raw GCD's do"),
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

    /// The design's Swift files (its module and the shared runtime) whose code, comments and blank
    /// lines aside, differs between `commit` and the working tree; every one of them when
    /// `commit` is not in this checkout's history.
    func changedFiles(of design: Design, since commit: String) -> [String] {
        cache.value(for: "\(design.rawValue)@\(commit)") {
            let folders = ["Implementations/\(design.moduleName)"] + Self.sharedFolders
            guard git(["cat-file", "-e", commit + "^{commit}"]) != nil,
                let names = git(["diff", "--name-only", commit, "--"] + folders)
            else { return ["(commit \(commit) is not in this checkout)"] }
            return names.split(separator: "\n").map(String.init).filter { $0.hasSuffix(".swift") }.filter { path in
                let old = git(["show", "\(commit):\(path)"]) ?? ""
                let new = (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
                return Self.code(of: old) != Self.code(of: new)
            }
        }
    }

    /// Whether `commit` includes `change` (is it or comes after it).
    func includes(_ commit: String, _ change: String) -> Bool {
        cache.value(for: "\(change)<=\(commit)") {
            git(["merge-base", "--is-ancestor", change, commit]) != nil ? ["yes"] : []
        } == ["yes"]
    }

    /// A Swift file's code: its lines without comments, blank lines or indentation, so that a
    /// change to the comments alone is no change.
    static func code(of source: String) -> [String] {
        var lines: [String] = []
        var inBlockComment = false
        for line in source.split(separator: "\n") {
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
            lines.append(text)
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
