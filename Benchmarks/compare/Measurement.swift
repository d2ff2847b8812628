import AllocationCounting
import CompareKit
import Foundation

/// Counts heap allocations made while a body runs, on every thread, through the
/// `AllocationCounting` target linked into the tool (its `malloc` and `free` replace the C
/// library's for the whole process and forward to it).
///
/// Counting is switched on only inside ``measure(_:)``; the rest of the time the replacement costs
/// one relaxed load per call, the same for every contender.
final class AllocationMeter {
    private(set) var allocations = 0
    private(set) var bytesAllocated = 0
    private(set) var bytesFreed = 0

    /// Whether this platform's allocator is counted (glibc); elsewhere the report leaves
    /// allocations and memory out.
    static var isAvailable: Bool { allocation_counting_is_available() }

    /// Runs `body` with counting on and adds what it allocated and freed to the totals.
    func measure(_ body: () throws -> Void) rethrows {
        allocation_counting_start()
        defer {
            let counts = allocation_counting_stop()
            allocations += Int(counts.allocations)
            bytesAllocated += Int(counts.allocatedBytes)
            bytesFreed += Int(counts.freedBytes)
        }
        try body()
    }

    /// Bytes allocated and not yet freed by the measured bodies.
    var bytesRetained: Int { bytesAllocated - bytesFreed }
}

/// The process's peak resident set size so far, in bytes (`getrusage`'s `ru_maxrss`, KiB on Linux).
func peakResidentBytes() -> Int {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    return Int(usage.ru_maxrss) * 1024
}

/// Facts about the machine and the checkout, for the report's header.
enum Provenance {
    static func machine() -> MachineInfo {
        let model = Host.cpuModel()
        var system = utsname()
        uname(&system)
        let os = [
            withUnsafeBytes(of: &system.sysname, cString),
            withUnsafeBytes(of: &system.release, cString),
            withUnsafeBytes(of: &system.machine, cString),
        ].joined(separator: " ")
        return MachineInfo(
            os: os,
            cpu: model,
            cores: usableCores(),
            memoryBytes: ProcessInfo.processInfo.physicalMemory
        )
    }

    /// The cores this process may run on: its CPU affinity (`taskset` narrows it), read from
    /// `/proc/self/status`, where `activeProcessorCount` counts every online core.
    static func usableCores() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }),
            let list = line.split(separator: ":").last
        else { return ProcessInfo.processInfo.activeProcessorCount }
        // "0-3,6": ranges and single cores.
        let count = list.split(separator: ",").reduce(0) { total, part in
            let bounds = part.split(separator: "-").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            return total + (bounds.count == 2 ? bounds[1] - bounds[0] + 1 : bounds.count)
        }
        return count > 0 ? count : ProcessInfo.processInfo.activeProcessorCount
    }

    /// The current commit (`-dirty` with uncommitted changes to the code), or `unknown` outside a
    /// git checkout. The tool's own outputs (`Reports/`, the README's table) and the other Markdown
    /// files do not count: a full run rewrites them, and the next run measures the same code.
    static func commit() -> String {
        guard let head = shell("git", "rev-parse", "--short", "HEAD")?.trimmingCharacters(in: .whitespacesAndNewlines),
            !head.isEmpty
        else { return "unknown" }
        let status =
            shell("git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!Reports", ":!*.md") ?? ""
        return status.isEmpty ? head : head + "-dirty"
    }

    /// The first line of `swift --version` (`swift run` needs it), or `unknown`.
    static func toolchain() -> String {
        shell("swift", "--version")?.split(separator: "\n").first.map(String.init) ?? "unknown"
    }

    /// Now, ISO 8601 in UTC.
    static func now() -> String {
        ISO8601DateFormatter().string(from: Date())
    }

    private static func cString(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    private static func shell(_ arguments: String...) -> String? { Host.output(of: arguments) }

}
