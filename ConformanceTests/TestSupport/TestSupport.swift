public import Dispatch
public import Foundation
import PromiseRuntime
public import SharedPromiseTypes
public import Testing

// Helpers shared by every design's tests. Every wait has a timeout, so a promise or task that never
// settles fails its test instead of stalling the run.

/// How long a test waits for something that should happen at once, before it fails: 120 s, or
/// 300 s under a sanitizer.
///
/// Generous on purpose, since it only bounds how long a *failing* test takes; a passing test never
/// waits for it. All tests of a run execute at once in one process on as few as two cores, and the
/// plain run needs more CPU time than it lasts, so a test's waits last as long as the busiest
/// moment of the whole run, not as long as its own work: on CI, with builds beside the tests, a
/// task group that needs a few milliseconds of work waited 63 s for the cooperative pool
/// (Reports/reliability.md).
public let defaultTestTimeout: Duration = Sanitizer.isActive ? .seconds(300) : .seconds(120)

/// A timeout for a wait known to take long (a 100,000-link chain): `minimum`, but never shorter
/// than ``defaultTestTimeout``, which grows under a sanitizer.
public func longTimeout(_ minimum: Duration) -> Duration {
    max(minimum, defaultTestTimeout)
}

/// Thrown when a wait runs out of time.
public struct TimedOut: Error, CustomStringConvertible {
    public let what: String
    public init(what: String) { self.what = what }
    public var description: String { "timed out waiting for \(what)" }
}

/// A distinguishable error for tests.
public struct TestError: Error, Equatable, CustomStringConvertible {
    public let code: Int
    public init(_ code: Int = 0) { self.code = code }
    public var description: String { "TestError(\(code))" }
}

/// Waits for `body` to hand over one result through its completion, at most `timeout`.
///
/// Needs no queue to be serviced: the timeout fires from a global queue. A second completion is
/// ignored (tests that care count calls with a ``Recorder``).
public func awaitCompletion<Value: Sendable>(
    _ what: String = "a completion",
    timeout: Duration = defaultTestTimeout,
    _ body: (@escaping @Sendable (Result<Value, any Error>) -> Void) -> Void
) async throws -> Value {
    let wait = OneShot<Value>()
    return try await withCheckedThrowingContinuation { continuation in
        wait.install(continuation)
        body { result in wait.resume(with: result) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval) {
            wait.resume(with: .failure(TimedOut(what: what)))
        }
    }
}

/// Waits for an asynchronous result, such as a promise's `value`, at most `timeout`, and tells
/// how it ended; throws ``TimedOut`` if it did not end in time.
///
/// The result is awaited in a separate task, so a promise that never settles cannot hold the test
/// past the timeout.
public func awaitOutcome<Value: Sendable>(
    _ what: String = "a promise",
    timeout: Duration = defaultTestTimeout,
    of result: @escaping @Sendable () async throws -> Value
) async throws -> Result<Value, any Error> {
    try await awaitCompletion(what, timeout: timeout) { complete in
        Task {
            do {
                complete(.success(.success(try await result())))
            } catch {
                complete(.success(.failure(error)))
            }
        }
    }
}

/// Waits for `body` to call `done` (at least once), within `timeout`.
public func waitUntil(
    _ what: String = "a callback",
    timeout: Duration = defaultTestTimeout,
    _ body: (@escaping @Sendable () -> Void) -> Void
) async throws {
    let _: Void = try await awaitCompletion(what, timeout: timeout) { complete in
        body { complete(.success(())) }
    }
}

/// Polls `condition` every millisecond until it holds; fails after `timeout`. Only for conditions
/// with no signal to wait for, such as an object having been freed.
public func eventually(
    _ what: String,
    timeout: Duration = defaultTestTimeout,
    _ condition: @escaping @Sendable () -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while !condition() {
        guard clock.now < deadline else { throw TimedOut(what: what) }
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// A continuation that is resumed once, whichever of several racers comes first.
public final class OneShot<Value: Sendable>: Sendable {
    /// Guards the continuation until the first resume takes it.
    private let continuation = PromiseMutex<CheckedContinuation<Value, any Error>?>(nil)

    public init() {}

    public func install(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation.withLock { $0 = continuation }
    }

    public func resume(with result: Result<Value, any Error>) {
        let taken = continuation.withLock { stored in
            defer { stored = nil }
            return stored
        }
        taken?.resume(with: result)
    }
}

/// Records events from any thread, in order.
public final class Recorder<Element: Sendable>: Sendable {
    /// Guards the recorded events.
    private let events = PromiseMutex<[Element]>([])
    public init() {}
    public func record(_ event: Element) { events.withLock { $0.append(event) } }
    public var all: [Element] { events.withLock { $0 } }
    public var count: Int { events.withLock { $0.count } }
    /// Forgets every event; they are released after the lock is.
    public func removeAll() {
        let removed = events.withLock { events in
            defer { events = [] }
            return events
        }
        withExtendedLifetime(removed) {}
    }
}

/// A queue that knows when code runs on it.
public final class TaggedQueue: Sendable {
    public let queue: DispatchQueue
    public let label: String
    private let key = DispatchSpecificKey<String>()

    public init(_ label: String, attributes: DispatchQueue.Attributes = []) {
        self.label = label
        queue = DispatchQueue(label: label, attributes: attributes)
        queue.setSpecific(key: key, value: label)
    }

    /// Whether the calling code runs on this queue.
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == label }
}

/// Tells whether code runs on the main queue (not the main thread: Swift Testing services the main
/// queue from a worker thread on Linux).
public enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    public static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}

extension Duration {
    /// The duration in seconds, for Dispatch deadlines.
    public var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

/// A weak reference, to check that an object is freed.
///
/// `Object` may be an existential (`AnyObject`) for an object whose type a generic test does not
/// know to be a class; such a test only compares ``object`` with `nil`.
public final class Weak<Object: AnyObject>: @unchecked Sendable {
    /// Guards `storage` (a `weak var`, which `Mutex` cannot hold).
    private let lock = NSLock()
    private weak var storage: Object?
    public init(_ object: Object?) { storage = object }
    public var object: Object? {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
    /// Points the reference at `object` (for an object made where the test cannot reach it).
    public func set(_ object: Object?) {
        lock.lock()
        defer { lock.unlock() }
        storage = object
    }
}

/// The error `outcome` failed with; records an issue (at the caller's location) if it succeeded.
public func rejection<Value>(
    of outcome: Result<Value, any Error>,
    sourceLocation: SourceLocation = #_sourceLocation
) -> (any Error)? {
    switch outcome {
    case .success(let value):
        Issue.record("expected a rejection, got \(String(describing: value))", sourceLocation: sourceLocation)
        return nil
    case .failure(let error):
        return error
    }
}

/// A foreign thenable driven by a script: its `then` runs `script` with the callbacks it is
/// given, and counts how often it was called.
public final class ScriptThenable: Thenable {
    public typealias Script =
        @Sendable (
            @escaping @Sendable (PromiseValue) -> Void,
            @escaping @Sendable (any Error) -> Void
        ) throws -> Void

    private let script: Script
    private let callCount = Recorder<Void>()

    public init(_ script: @escaping Script) { self.script = script }

    /// How many times `then` was called.
    public var calls: Int { callCount.count }

    public func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) throws {
        callCount.record(())
        try script(resolvePromise, rejectPromise)
    }
}
