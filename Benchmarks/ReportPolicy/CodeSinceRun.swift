import CompareKit
public import Foundation

/// What changed in the designs' code (`Implementations/`) between the commit a run measured and
/// the commit its report was rendered at: `benchmarks.md` says it in its header, so that a
/// reader knows whether the numbers are of the code in front of them.
public struct CodeSinceRun: Equatable, Sendable {
    /// The folder whose changes count: the designs and their shared runtime.
    public static let folder = "Implementations"
    /// The row of the run table that says it.
    public static let rowTitle = "Design code since the run"

    /// Commits after the run's that changed ``folder``.
    public var commits: Int
    /// The files they changed, relative to the package root, sorted.
    public var files: [String]

    public init(commits: Int, files: [String]) {
        self.commits = commits
        self.files = files
    }

    /// "unchanged: …", or "3 commits changed 2 files: `a`, `b`".
    public var text: String {
        guard commits > 0 || !files.isEmpty else {
            return "unchanged (the run measured the designs' code at the commit of this report)"
        }
        let list = files.map { "`\($0)`" }.joined(separator: ", ")
        return
            "\(commits) commit\(commits == 1 ? "" : "s") changed \(files.count) file\(files.count == 1 ? "" : "s"): \(list)"
    }

    /// The changes since `commit` (a `-dirty` suffix is ignored) in the git checkout at `root`, or
    /// `nil` when `root` is not a checkout or does not have that commit (a shallow clone).
    public static func compute(since commit: String, root: URL) -> CodeSinceRun? {
        let base = commit.hasSuffix("-dirty") ? String(commit.dropLast("-dirty".count)) : commit
        guard git(["cat-file", "-e", base + "^{commit}"], root: root) != nil,
            let count = git(["rev-list", "--count", "\(base)..HEAD", "--", folder], root: root)
                .flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }),
            let names = git(["diff", "--name-only", base, "HEAD", "--", folder], root: root)
        else { return nil }
        return CodeSinceRun(commits: count, files: names.split(separator: "\n").map(String.init).sorted())
    }

    private static func git(_ arguments: [String], root: URL) -> String? {
        Host.output(of: ["git", "-C", root.path] + arguments)
    }
}
