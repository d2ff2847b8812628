import Foundation
import Synchronization

#if canImport(Runtime)
    import Runtime
#endif

/// A promise that could never settle any more, found by ``PendingPromiseLeakCheck``.
public struct PendingPromiseLeak: Sendable, CustomStringConvertible {
    /// The promise's type, as `String(describing:)` writes it, generic arguments included.
    public let promiseType: String
    /// The promise's identity, to match a report with a promise one holds a reference to (valid
    /// while the report is made: a freed promise reports from its `deinit`).
    public let promiseID: ObjectIdentifier
    /// Where the promise was made, captured cheaply then and symbolicated only when read.
    let creation: CreationStack

    /// The call stack that made the promise, innermost frame first, one line per frame (address,
    /// image, symbol, file and line where debug information has them). Symbolicating is slow
    /// (milliseconds): a reporter that only counts leaks should not read it.
    public var creationStack: [String] { creation.frames }

    public var description: String {
        "a pending \(promiseType) can no longer settle; it was made at:\n"
            + creationStack.map { "    \($0)" }.joined(separator: "\n")
    }
}

/// Reports promises that are given up while still pending: SwiftNIO's "leaking promise" check,
/// as a report instead of a crash, in debug builds only.
///
/// A promise that is freed (or that nothing can settle any more) before it settled never calls
/// its callbacks. Usually that is a bug: a resolver dropped on an error path, a callback API that
/// never answered. Each design reports that moment in its own terms, and its documentation says
/// which: a promise freed while pending; a promise whose last settler is gone, so that it lets go
/// of itself; a lazy task freed after it started and before it finished (one never started is not
/// reported, since making a task without starting it is allowed).
///
/// A promise made while a reporter is bound reports to that reporter, wherever it is freed:
///
/// ```swift
/// let leaks = Recorder<PendingPromiseLeak>()
/// PendingPromiseLeakCheck.$reporter.withValue({ leaks.record($0) }) {
///     loadProfile()       // promises made here are tracked
/// }
/// ```
///
/// Setting the environment variable `PROMISE_LEAK_CHECK=1` tracks every promise of the process
/// and prints each report to standard error instead.
///
/// ## Cost
/// Release builds of the design modules compile the check out: no stored property, no call. In a
/// debug build a promise made while the check is off pays one task-local read; a tracked promise
/// also captures its creation stack (return addresses only; symbolicated when a report is
/// read), so bind a reporter around the code under test, not around a benchmark.
///
/// Only promises made on the task that bound the reporter are tracked: a promise made later in a
/// callback on a dispatch queue is not, unless `PROMISE_LEAK_CHECK=1` is set. A chain reports
/// every link that is given up, the root first or not, depending on the order they are freed.
public enum PendingPromiseLeakCheck {
    /// Receives each report, on the thread that gave the promise up.
    public typealias Reporter = @Sendable (PendingPromiseLeak) -> Void

    /// The reporter for promises made in this task (and its child tasks), or `nil`.
    @TaskLocal public static var reporter: Reporter?

    /// Whether the design modules of this build can report at all (debug builds).
    public static var isCompiledIn: Bool {
        #if DEBUG
            true
        #else
            false
        #endif
    }

    /// The process-wide reporter of `PROMISE_LEAK_CHECK=1`: prints to standard error, with the
    /// creation stack for the first ``stackedReports`` reports only (symbolicating one takes
    /// milliseconds, and a dropped chain reports every link).
    private static let environmentReporter: Reporter? = {
        guard ProcessInfo.processInfo.environment["PROMISE_LEAK_CHECK"] == "1" else { return nil }
        let reports = Atomic<Int>(0)
        return { leak in
            let number = reports.add(1, ordering: .relaxed).newValue
            let text =
                number <= stackedReports
                ? "\(leak)"
                : "a pending \(leak.promiseType) can no longer settle (stack shown for the first \(stackedReports) reports only)"
            FileHandle.standardError.write(Data("PromiseLeakCheck: \(text)\n".utf8))
        }
    }()

    /// How many reports of `PROMISE_LEAK_CHECK=1` show their creation stack.
    static let stackedReports = 10

    /// For the design modules: a tracker to keep in a new pending promise, or `nil` if the check
    /// is off for this task. Call it only where the promise is made, in debug builds.
    public static func track() -> PendingPromiseLeakTracker? {
        guard let reporter = reporter ?? environmentReporter else { return nil }
        return PendingPromiseLeakTracker(reporter: reporter, creation: CreationStack.capture())
    }
}

/// What a tracked pending promise keeps: where it was made and whom to tell. Made by
/// ``PendingPromiseLeakCheck/track()``.
public struct PendingPromiseLeakTracker: Sendable {
    let reporter: PendingPromiseLeakCheck.Reporter
    let creation: CreationStack

    /// For the design modules: tells the reporter that `promise` was given up while pending.
    public func reportGivenUp(_ promise: AnyObject) {
        reporter(
            PendingPromiseLeak(
                promiseType: String(describing: type(of: promise)),
                promiseID: ObjectIdentifier(promise),
                creation: creation
            )
        )
    }
}

/// Where a promise was made: a backtrace where the system has Swift's `Runtime` module (Linux,
/// macOS 26), nothing on older systems.
struct CreationStack: Sendable {
    /// A `Backtrace`, typed as `any Sendable` because the type itself needs macOS 26.
    private let backtrace: (any Sendable)?

    static func capture() -> CreationStack {
        #if canImport(Runtime)
            if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
                return CreationStack(backtrace: try? Backtrace.capture())
            }
        #endif
        return CreationStack(backtrace: nil)
    }

    /// One line per frame, innermost first; symbolicated now (slow: milliseconds).
    var frames: [String] {
        #if canImport(Runtime)
            if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *),
                let symbolicated = (backtrace as? Backtrace)?.symbolicated()
            {
                return symbolicated.frames.map(\.description)
            }
        #endif
        return []
    }
}
