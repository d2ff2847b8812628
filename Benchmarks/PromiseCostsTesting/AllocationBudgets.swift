import Dispatch
import Foundation
public import PromiseCosts
public import Testing

/// The allocation runner in `swift test`: runs a package's allocation tool and records a Swift
/// Testing issue for every count that does not meet its budget.
///
/// ```swift
/// import PromiseCostsTesting
/// import Testing
///
/// @Test func allocationsMeetTheirBudgets() async throws {
///     try await AllocationBudgets.expectMet(byTool: "MyPromiseAllocations")
/// }
/// ```
///
/// The tool is an executable target of the package (see `AllocationCountingTool`), which
/// `swift build` and `swift test` build next to the test bundle. It runs in a process of its own,
/// since counting replaces the C allocator for the whole process, and off the cooperative pool,
/// whose threads the other tests need meanwhile.
public enum AllocationBudgets {
    /// Runs the allocation tool `tool` and records an issue for each count off its budget: an
    /// allocation count must equal its budget exactly; a pending promise's bytes must be within
    /// ``PromiseCosts/AllocationCount/byteTolerance`` of its budget.
    ///
    /// Where the tool cannot count (not Linux with glibc, or under a sanitizer), nothing is
    /// recorded: the reason is printed and the result is empty. Counts without a budget are printed,
    /// to be written in.
    ///
    /// - Parameters:
    ///   - tool: The executable's name, as the package's manifest declares it.
    ///   - arguments: Arguments for the tool, such as `["--only", "chain link"]`.
    ///   - timeout: How long the tool may run.
    /// - Returns: Every count, in the tool's order.
    @discardableResult
    public static func expectMet(
        byTool tool: String, arguments: [String] = [], timeout: Duration = .seconds(300),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [AllocationCount] {
        let run = try await ToolProcess.run(try ToolProcess.builtExecutable(tool), arguments, timeout: timeout)
        if run.status == AllocationCount.cannotCountStatus {
            print("\(tool): allocations not counted: \(run.errors.trimmingCharacters(in: .whitespacesAndNewlines))")
            return []
        }
        guard run.status == 0 else {
            Issue.record("\(tool) exited with status \(run.status): \(run.errors)", sourceLocation: sourceLocation)
            return []
        }
        let counts = try run.output.split(separator: "\n").map { line in
            try JSONDecoder().decode(AllocationCount.self, from: Data(line.utf8))
        }
        for count in counts {
            for problem in count.problems { Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation) }
            if let note = count.unbudgetedNote { print("\(tool): \(note)") }
        }
        return counts
    }
}

/// A package executable, run and waited for off the cooperative pool.
enum ToolProcess {
    struct Run: Sendable {
        let status: Int32
        let output: String
        let errors: String
    }

    /// Thrown when the executable is not built, or does not end in time.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The package executable `name`, which `swift build` puts next to the test bundle.
    static func builtExecutable(_ name: String) throws -> URL {
        let folders =
            [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
            + Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map {
                $0.bundleURL.deletingLastPathComponent()
            }
        for folder in folders {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Failure(
            description: "no executable \(name) next to the test bundle (in \(folders.map(\.path))): declare it as an "
                + "executable target of this package and build it (`swift build`)")
    }

    /// Runs `executable` with `arguments` on a thread of Dispatch's, and waits without blocking
    /// the caller's thread.
    static func run(_ executable: URL, _ arguments: [String], timeout: Duration) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            let once = Once(continuation)
            DispatchQueue(label: "PromiseCostsTesting.tool").async {
                once.resume(with: Result { try runAndWait(executable, arguments) })
            }
            let seconds = Double(timeout.components.seconds)
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                once.resume(
                    with: .failure(Failure(description: "\(executable.lastPathComponent) did not end in \(timeout)")))
            }
        }
    }

    static func runAndWait(_ executable: URL, _ arguments: [String]) throws -> Run {
        #if os(Linux) || os(macOS)
            try runProcess(executable, arguments)
        #else
            throw Failure(description: "this system cannot run \(executable.lastPathComponent) as a process of its own")
        #endif
    }

    #if os(Linux) || os(macOS)
        static func runProcess(_ executable: URL, _ arguments: [String]) throws -> Run {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            // Standard error is read on another thread, so that neither pipe fills while the other
            // is read.
            let errorData = ErrorBuffer()
            let readErrors = DispatchWorkItem { errorData.set(errors.fileHandleForReading.readDataToEndOfFile()) }
            DispatchQueue.global().async(execute: readErrors)
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            readErrors.wait()
            return Run(
                status: process.terminationStatus, output: String(decoding: data, as: UTF8.self),
                errors: String(decoding: errorData.get(), as: UTF8.self))
        }
    #endif
}

/// Resumes a continuation once; later calls do nothing. `@unchecked Sendable`: `lock` guards
/// `continuation`.
private final class Once<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, any Error>?

    init(_ continuation: CheckedContinuation<Value, any Error>) { self.continuation = continuation }

    func resume(with result: Result<Value, any Error>) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        continuation?.resume(with: result)
    }
}

/// Standard error's bytes, handed from the reading thread. `@unchecked Sendable`: `lock` guards
/// `data`.
private final class ErrorBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func set(_ data: Data) {
        lock.lock()
        self.data = data
        lock.unlock()
    }

    func get() -> Data {
        lock.lock()
        defer { lock.unlock() }
        return data
    }
}
