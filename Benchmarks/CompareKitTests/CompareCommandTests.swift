import DesignRegistry
import Foundation
import TestSupport
import Testing

@testable import CompareKit

/// The `compare` command line, run as the built tool (the debug build next to this test bundle):
/// its help names every option, and a narrowed run may not replace the committed reports. Neither
/// measures anything, so the debug build answers itself.
@Suite(
    "compare: the command line",
    .disabled(if: Sanitizer.isActive, "the sanitized runs build the test bundle only; the plain run checks the tool"))
struct CompareCommandTests {
    /// Runs the tool off the cooperative pool: waiting on a process there would hold one of its
    /// threads (two on CI) for as long as the process runs.
    static func runCompare(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let tool = try ToolRun.builtTool("compare")
        return try await offPool("compare \(arguments.joined(separator: " "))", timeout: longTimeout(.seconds(120))) {
            let run = try ToolRun.run(tool, arguments, mergingErrors: true)
            return (run.status, run.text)
        }
    }

    @Test("compare --help documents every option of a benchmark run, and the subcommands")
    func helpListsOptions() async throws {
        let (status, help) = try await Self.runCompare(["--help"])
        #expect(status == 0)
        for option in [
            "--quick", "--as-built", "--scenario", "--design", "--processes", "--repetitions", "--output",
        ] {
            #expect(help.contains(option), "\(option) missing from compare --help")
        }
        let subcommands = help.components(separatedBy: "SUBCOMMANDS:").last ?? ""
        for subcommand in ["render", "record"] {
            #expect(subcommands.contains("  \(subcommand) "), "\(subcommand) missing from the subcommands")
        }
    }

    @Test("a narrowed run told to write Reports is refused before it measures anything")
    func narrowedRunRefused() async throws {
        let (status, output) = try await Self.runCompare(["--quick", "--output", "Reports"])
        #expect(status == 64)  // ArgumentParser's validation error
        #expect(output.contains("would replace the full report"))
    }

    /// CI checks every result and crash on the debug build the tests use, not on a release build of
    /// its own: told `--as-built`, the debug tool runs itself, its children too, and its report says
    /// so, so that `record` refuses it.
    @Test("a debug build told --as-built checks itself, says so in its report, and is no record")
    func debugBuildChecksItself() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("as-built-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await Self.runCompare([
            "--as-built", "--scenario", "single", "--design", "FBL", "--processes", "2", "--repetitions", "1",
            "--output", folder.path,
        ])
        try #require(run.status == 0 && !run.output.contains("running the release build"), "\(run.output)")
        let markdown = try String(contentsOf: folder.appendingPathComponent("benchmarks.md"), encoding: .utf8)
        #expect(
            markdown.contains("> **Debug build** (`--as-built`)") && markdown.contains("`swift run compare --as-built"))
        let record = try await Self.runCompare(["--output", folder.path, "record", folder.path + "/benchmarks.json"])
        #expect(record.status != 0 && record.output.contains("is a debug build's run"), "\(record.output)")
    }

    /// The contenders `compare --help` lists, in report order.
    static func listedContenders() async throws -> [String] {
        let (_, help) = try await Self.runCompare(["--help"])
        let flattened = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let list = try #require(
            flattened.range(of: "Run only this contender (repeatable): ").map { flattened[$0.upperBound...] }?
                .components(separatedBy: ". GCD always runs").first)
        return list.components(separatedBy: ", ")
    }

    @Test("every registered design is a contender, under its name")
    func everyDesignIsAContender() async throws {
        let contenders = try await Self.listedContenders()
        for design in Design.allCases {
            #expect(contenders.contains(design.rawValue), "\(design) in \(contenders)")
        }
    }

    @Test("the peers are SwiftNIO, Combine and Swift concurrency")
    func peers() async throws {
        let contenders = try await Self.listedContenders()
        for peer in ["NIO", "Combine", "Swift concurrency"] {
            #expect(contenders.contains(peer), "\(peer) in \(contenders)")
        }
    }

    @Test("the subcommands take only --output: a benchmark option there is refused, not ignored")
    func subcommandsRefuseBenchmarkOptions() async throws {
        for arguments in [["render", "--quick"], ["record", "--scenario", "chain", "x.json"]] {
            let (status, output) = try await Self.runCompare(arguments)
            #expect(status == 64, "\(arguments)")
            #expect(output.contains("takes only --output"), "\(arguments): \(output)")
        }
    }
}
