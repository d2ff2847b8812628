import Foundation

/// Runs the release build of `compare` for a debug build, which never measures: `swift run compare`
/// builds the debug product, and its numbers would measure the compiler's debug mode.
enum ReleaseBuild {
    /// The package root: this file is `Benchmarks/compare/ReleaseBuild.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Builds `compare` in release mode (a no-op when it is up to date), then runs it with
    /// `arguments` in the current directory, sharing this process's standard streams.
    ///
    /// - Returns: The release run's exit status.
    static func run(arguments: [String]) throws -> Int32 {
        Reports.log(
            "this is a debug build, which never measures: running the release build "
                + "(swift build -c release --product compare), with the same arguments")
        let build = try launch(["swift", "build", "-c", "release", "--product", "compare"], in: packageRoot)
        guard build.status == 0 else {
            throw BenchmarkError.invalidArgument("the release build of compare failed (status \(build.status))")
        }
        let binPath = try launch(
            ["swift", "build", "-c", "release", "--show-bin-path"], in: packageRoot, capture: true)
        let folder = binPath.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let tool = URL(fileURLWithPath: folder).appendingPathComponent("compare")
        return try launch([tool.path] + arguments, in: nil, executable: tool).status
    }

    private static func launch(
        _ arguments: [String], in folder: URL?, capture: Bool = false, executable: URL? = nil
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        if let executable {
            process.executableURL = executable
            process.arguments = Array(arguments.dropFirst())
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
        }
        if let folder { process.currentDirectoryURL = folder }
        let pipe = Pipe()
        if capture { process.standardOutput = pipe }
        try process.run()
        let output = capture ? String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) : ""
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
