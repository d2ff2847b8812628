import Foundation

/// Where a `compare` run writes its reports, so that only the full default run replaces the
/// committed ones in `Reports/`.
///
/// A narrowed run (some scenarios or contenders, `--quick`, other processes or repetitions) measures
/// less than the report it would replace: written to `Reports/`, it would silently drop every other
/// result and chart; a debug build's check (`--as-built`) measures nothing. It goes to
/// ``partialRunFolder`` instead, unless `--output` names another folder.
public enum OutputFolder {
    /// The committed reports, written by the full default run.
    public static let reports = "Reports"
    /// Where a narrowed run writes by default: inside the build folder, which git ignores.
    public static let partialRunFolder = ".build/compare-partial"

    /// What the run measures, as far as the choice of folder goes.
    public struct Run: Sendable, Equatable {
        public var scenariosNamed: Bool
        public var contendersNamed: Bool
        public var quick: Bool
        public var processes: Int?
        public var repetitions: Int?
        /// A debug build may run itself (`--as-built`): a check, whose times measure nothing.
        public var asBuilt: Bool
        /// Independent process runs of a full run: the interval of a ratio needs the spread between
        /// processes, and three fit a full run in a few minutes on 2 cores.
        public static let defaultProcesses = 3
        /// Timed repetitions per cell in each process run.
        public static let defaultRepetitions = 5

        public init(
            scenariosNamed: Bool, contendersNamed: Bool, quick: Bool, processes: Int? = nil, repetitions: Int?,
            asBuilt: Bool = false
        ) {
            self.scenariosNamed = scenariosNamed
            self.contendersNamed = contendersNamed
            self.quick = quick
            self.processes = processes
            self.repetitions = repetitions
            self.asBuilt = asBuilt
        }

        /// Every scenario, every default contender, full sizes, and the default processes and
        /// repetitions.
        public var isFull: Bool {
            !scenariosNamed && !contendersNamed && !quick && !asBuilt
                && (processes ?? Self.defaultProcesses) == Self.defaultProcesses
                && (repetitions ?? Self.defaultRepetitions) == Self.defaultRepetitions
        }
    }

    /// A narrowed run told to write into the committed reports.
    public struct WouldReplaceFullReport: Error, CustomStringConvertible {
        public let folder: String
        public var description: String {
            "a narrowed run (--scenario, --design, --quick, --processes, --repetitions or --as-built) would "
                + "replace the full report in \(reports)/ (--output \(folder)) with part of it; give another "
                + "--output, or leave it out to write to \(partialRunFolder)"
        }
    }

    /// The folder to write to.
    ///
    /// - Parameters:
    ///   - explicit: The `--output` argument, if given.
    ///   - run: What the run measures.
    /// - Returns: `explicit` if given, `Reports` for the full run, ``partialRunFolder`` otherwise.
    /// - Throws: ``WouldReplaceFullReport`` when a narrowed run names `Reports` itself.
    public static func folder(explicit: String?, for run: Run) throws -> String {
        guard let explicit else { return run.isFull ? reports : partialRunFolder }
        if !run.isFull && isReportsFolder(explicit) { throw WouldReplaceFullReport(folder: explicit) }
        return explicit
    }

    /// The committed `Reports` folder of this package: this file is
    /// `Benchmarks/CompareKit/OutputFolder.swift`.
    static let packageReports = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(reports)

    /// Whether `path` is a `Reports` folder that holds the committed reports: this package's (however
    /// spelled, through symbolic links too) or `Reports` under the current directory.
    static func isReportsFolder(_ path: String) -> Bool {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let resolved = { (url: URL) in url.standardizedFileURL.resolvingSymlinksInPath().path }
        let candidate = resolved(URL(fileURLWithPath: path, relativeTo: current))
        return candidate == resolved(packageReports) || candidate == resolved(current.appendingPathComponent(reports))
    }
}
