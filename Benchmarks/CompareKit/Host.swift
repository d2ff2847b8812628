public import Foundation

/// Facts the tools read from the machine they run on.
public enum Host {
    /// The CPU's model name (`/proc/cpuinfo`'s `model name`), or `unknown CPU` where there is none.
    public static func cpuModel() -> String {
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        return info.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
    }

    /// Runs a command found on the `PATH` (in `directory`, if given) and returns its standard
    /// output, or `nil` if it could not start or exited with another status than 0.
    public static func output(of arguments: [String], in directory: URL? = nil) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
}
