import Foundation

/// Runs the release build of `compare` for a debug build, which never measures: `swift run compare`
/// builds the debug product, and its numbers would measure the compiler's debug mode.
enum ReleaseBuild {
    /// The package root: this file is `Benchmarks/compare/ReleaseBuild.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Builds `compare` in release mode (a no-op when it is up to date) and runs it with `arguments`
    /// through `swift run`, in the current directory, sharing this process's standard streams.
    ///
    /// - Returns: The release run's exit status, or SwiftPM's when the build fails.
    static func run(arguments: [String]) throws -> Int32 {
        Reports.log("a debug build never measures: running the release build (swift run -c release compare)")
        let process = try Process.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["swift", "run", "-c", "release", "--package-path", packageRoot.path, "compare"] + arguments)
        process.waitUntilExit()
        return process.terminationStatus
    }
}
