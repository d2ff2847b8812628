public import Foundation

/// Everything one `compare` run measured: the raw samples and how they were taken.
///
/// Written to `Reports/benchmarks.json` and read back to write `benchmarks.md`, so the Markdown is
/// always a pure function of the JSON. ``version`` changes whenever a field changes meaning; a
/// reader refuses a version it does not know instead of misreading it.
public struct BenchmarkReport: Codable, Equatable, Sendable {
    /// The format version this code writes and reads (version 1, one process per run, is no
    /// longer read: every committed report and record is of version 2).
    public static let currentVersion = 2

    /// The format version of this report.
    public var version: Int
    /// When, where and how the run happened.
    public var run: RunInfo
    /// Every implementation measured, in the order the tables list them.
    public var contenders: [ContenderInfo]
    /// One entry per scenario, in the order they ran.
    public var scenarios: [ScenarioResult]
    /// Retained bytes and allocations per pending promise with one `then`, per contender.
    public var memory: [MemoryResult]

    public init(
        run: RunInfo,
        contenders: [ContenderInfo],
        scenarios: [ScenarioResult],
        memory: [MemoryResult]
    ) {
        version = Self.currentVersion
        self.run = run
        self.contenders = contenders
        self.scenarios = scenarios
        self.memory = memory
    }

    /// The report's JSON: sorted keys and pretty-printed, so reruns diff line by line.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// Reads a report, refusing a format version this code does not know.
    public static func decode(from data: Data) throws -> BenchmarkReport {
        try decodeVersioned(from: data, expected: currentVersion, or: ReportError.unsupportedVersion)
    }
}

private struct FormatVersion: Decodable { let version: Int }

/// Decodes a `T` whose JSON has a `version` field, after checking that it is `expected`;
/// otherwise throws `error(found, expected)`, so that no field is misread.
func decodeVersioned<T: Decodable>(
    from data: Data, expected: Int, or error: (_ found: Int, _ expected: Int) -> ReportError
) throws -> T {
    let version = try JSONDecoder().decode(FormatVersion.self, from: data).version
    guard version == expected else { throw error(version, expected) }
    return try JSONDecoder().decode(T.self, from: data)
}

/// A report that cannot be read.
public enum ReportError: Error, Equatable, CustomStringConvertible {
    /// The JSON was written by another format version.
    case unsupportedVersion(found: Int, expected: Int)
    /// A run record of another format version.
    case unsupportedRecordVersion(found: Int, expected: Int)
    /// A record in `runs/` that cannot be read.
    case unreadableRecord(name: String, reason: String)

    public var description: String {
        switch self {
        case .unsupportedVersion(let found, let expected):
            return
                "benchmarks.json has format version \(found); this tool reads version \(expected). Rerun compare."
        case .unsupportedRecordVersion(let found, let expected):
            return "a run record of format version \(found); this tool reads version \(expected) only. Record the "
                + "run again from its benchmarks.json: `compare record <benchmarks.json>`."
        case .unreadableRecord(let name, let reason):
            return "cannot read the run record \(name): \(reason)"
        }
    }
}

/// When, where and how a run happened.
public struct RunInfo: Codable, Equatable, Sendable {
    /// ISO 8601, UTC.
    public var date: String
    /// The command line, as typed.
    public var command: String
    /// `git rev-parse --short HEAD` plus `-dirty` when the tree had changes, or `unknown`.
    public var commit: String
    /// The first line of `swift --version`'s output at build time, or the compiler version.
    public var toolchain: String
    /// OS, CPU model, core count and memory.
    public var machine: MachineInfo
    /// Whether `--quick` shrank sizes and repetitions (a smoke run, not for conclusions).
    public var quick: Bool
    /// Independent processes that each measured every cell.
    public var processes: Int
    /// Timed repetitions per cell in each process (after the warm-up).
    public var repetitions: Int
    /// Untimed warm-up repetitions per cell.
    public var warmups: Int
    /// Wall time of the whole run, in seconds.
    public var durationSeconds: Double
    /// The process's peak resident set size at the end of the run, in bytes.
    public var peakRSSBytes: Int
    /// `true` when a debug build ran itself (`compare --as-built`): every result was checked, and
    /// the times measure the compiler's debug mode. Absent for an optimised build.
    public var debugBuild: Bool?

    public init(
        date: String,
        command: String,
        commit: String,
        toolchain: String,
        machine: MachineInfo,
        quick: Bool,
        processes: Int,
        repetitions: Int,
        warmups: Int,
        durationSeconds: Double,
        peakRSSBytes: Int,
        debugBuild: Bool? = nil
    ) {
        self.processes = processes
        self.date = date
        self.command = command
        self.commit = commit
        self.toolchain = toolchain
        self.machine = machine
        self.quick = quick
        self.repetitions = repetitions
        self.warmups = warmups
        self.durationSeconds = durationSeconds
        self.peakRSSBytes = peakRSSBytes
        self.debugBuild = debugBuild
    }
}

/// The machine a run happened on.
public struct MachineInfo: Codable, Equatable, Sendable {
    public var os: String
    public var cpu: String
    public var cores: Int
    public var memoryBytes: UInt64

    public init(os: String, cpu: String, cores: Int, memoryBytes: UInt64) {
        self.os = os
        self.cpu = cpu
        self.cores = cores
        self.memoryBytes = memoryBytes
    }
}

/// What kind of implementation a column is.
public enum ContenderKind: String, Codable, Equatable, Sendable {
    /// A floor: the same work with no promise at all (direct calls, raw GCD).
    case baseline
    /// A production peer: Swift structured concurrency, SwiftNIO's futures, Combine's `Future`.
    case peer
    /// One of the project's designs.
    case design
}

/// One implementation measured.
public struct ContenderInfo: Codable, Equatable, Sendable {
    /// Short column name (`GCD`, `FBL`, ...).
    public var name: String
    public var kind: ContenderKind
    /// One line on what it is and how it runs the scenarios.
    public var summary: String

    public init(name: String, kind: ContenderKind, summary: String) {
        self.name = name
        self.kind = kind
        self.summary = summary
    }
}

/// One scenario: its sizes and, per size, one cell per contender that can run it.
public struct ScenarioResult: Codable, Equatable, Sendable {
    /// Stable identifier, as given to `--scenario` (`chain`).
    public var id: String
    public var title: String
    /// What one unit of work is (`link`, `operation`, `element`): times are per unit.
    public var unit: String
    /// What the scenario does, for the report.
    public var summary: String
    /// Whether the scenario is a growth curve (several sizes, charted on log-log axes).
    public var isCurve: Bool
    /// The size the summary table quotes.
    public var headlineSize: Int
    public var sizes: [SizeResult]

    public init(
        id: String,
        title: String,
        unit: String,
        summary: String,
        isCurve: Bool,
        headlineSize: Int,
        sizes: [SizeResult]
    ) {
        self.id = id
        self.title = title
        self.unit = unit
        self.summary = summary
        self.isCurve = isCurve
        self.headlineSize = headlineSize
        self.sizes = sizes
    }

    /// The result for `size`, if measured.
    public func result(at size: Int) -> SizeResult? { sizes.first { $0.size == size } }
}

/// One size of one scenario.
public struct SizeResult: Codable, Equatable, Sendable {
    /// The scenario's N (promises, links, observers, operations).
    public var size: Int
    /// Units of work per sample: times are divided by this.
    public var units: Int
    public var cells: [Cell]

    public init(size: Int, units: Int, cells: [Cell]) {
        self.size = size
        self.units = units
        self.cells = cells
    }

    /// The cell of `contender`, if it ran.
    public func cell(_ contender: String) -> Cell? { cells.first { $0.contender == contender } }
}

/// The samples of one contender on one scenario and size.
public struct Cell: Codable, Equatable, Sendable {
    public var contender: String
    /// Seconds per unit, one per timed repetition, per process run (in run order).
    public var runs: [[Double]]
    /// For two-phase scenarios (chain): seconds per unit spent building, per repetition, pooled
    /// over the process runs.
    public var buildSamples: [Double]?
    /// For two-phase scenarios: seconds per unit from firing to the result, per repetition, pooled.
    public var fireSamples: [Double]?
    /// Heap allocations per unit, from one counted run (`nil` when not counted).
    public var allocationsPerUnit: Double?
    /// Scenario-specific counts (`stepsRun` for cancellation), from the last repetition.
    public var metrics: [String: Double]?

    /// A cell measured in one or more process runs.
    public init(
        contender: String,
        runs: [[Double]],
        buildSamples: [Double]? = nil,
        fireSamples: [Double]? = nil,
        allocationsPerUnit: Double? = nil,
        metrics: [String: Double]? = nil
    ) {
        self.contender = contender
        self.runs = runs
        self.buildSamples = buildSamples
        self.fireSamples = fireSamples
        self.allocationsPerUnit = allocationsPerUnit
        self.metrics = metrics
    }

    /// Every timed sample, pooled over the process runs.
    public var samples: [Double] { runs.flatMap { $0 } }

    /// The summary of ``samples``.
    public var summary: SampleSummary { SampleSummary(samples) }
}

/// What one pending promise with one `then` costs in memory, for one contender.
public struct MemoryResult: Codable, Equatable, Sendable {
    public var contender: String
    /// Bytes still allocated per pending promise with one `then` attached (the promise, the
    /// callback and the promise `then` returned).
    public var bytesPerPending: Double
    /// Allocations made per pending promise with one `then`.
    public var allocationsPerPending: Double

    public init(contender: String, bytesPerPending: Double, allocationsPerPending: Double) {
        self.contender = contender
        self.bytesPerPending = bytesPerPending
        self.allocationsPerPending = allocationsPerPending
    }
}
