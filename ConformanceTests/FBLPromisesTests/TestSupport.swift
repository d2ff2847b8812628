import Dispatch
import FBLPromises
import Foundation
import PromiseInterface
import Synchronization
import Testing

/// Shared helpers for the FBL tests. Every wait has a timeout, so a promise that never settles
/// fails its test instead of stalling the run.

struct TimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

struct TestError: Error, Equatable, CustomStringConvertible {
    let code: Int
    init(_ code: Int = 0) { self.code = code }
    var description: String { "TestError(\(code))" }
}

/// Waits for `promise` to settle, at most `timeout`; needs no queue to be serviced.
func outcome<Value: Sendable>(
    of promise: FBLPromise<Value>,
    timeout: Duration = .seconds(5)
) async throws -> Result<Value, any Error> {
    let wait = OneShot<Result<Value, any Error>>()
    return try await withCheckedThrowingContinuation { continuation in
        wait.install(continuation)
        Task {
            do {
                wait.resume(with: .success(.success(try await promise.value())))
            } catch {
                wait.resume(with: .success(.failure(error)))
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval) {
            wait.resume(with: .failure(TimedOut(what: "a promise")))
        }
    }
}

/// The value of `promise`, or a thrown error if it was rejected or timed out.
func value<Value: Sendable>(of promise: FBLPromise<Value>, timeout: Duration = .seconds(5)) async throws -> Value {
    try await outcome(of: promise, timeout: timeout).get()
}

/// The error `promise` was rejected with; records an issue if it was fulfilled.
func error<Value: Sendable>(
    of promise: FBLPromise<Value>,
    timeout: Duration = .seconds(5),
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> (any Error)? {
    switch try await outcome(of: promise, timeout: timeout) {
    case .success(let value):
        Issue.record("expected a rejection, got \(value)", sourceLocation: sourceLocation)
        return nil
    case .failure(let error):
        return error
    }
}

/// Waits for `body` to call `done` at most once, within `timeout`.
func waitUntil(
    _ what: String = "a callback",
    timeout: Duration = .seconds(5),
    _ body: (@escaping @Sendable () -> Void) -> Void
) async throws {
    let wait = OneShot<Void>()
    try await withCheckedThrowingContinuation { continuation in
        wait.install(continuation)
        body { wait.resume(with: .success(())) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval) {
            wait.resume(with: .failure(TimedOut(what: what)))
        }
    }
}

/// Polls `condition` every millisecond until it holds; fails after `timeout`. Only for conditions
/// with no signal to wait for, such as an object having been freed.
func eventually(
    _ what: String,
    timeout: Duration = .seconds(5),
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
final class OneShot<Value: Sendable>: Sendable {
    /// Guards the continuation until the first resume takes it.
    private let continuation = PromiseMutex<CheckedContinuation<Value, any Error>?>(nil)

    func install(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation.withLock { $0 = continuation }
    }

    func resume(with result: Result<Value, any Error>) {
        let taken = continuation.withLock { stored in
            defer { stored = nil }
            return stored
        }
        taken?.resume(with: result)
    }
}

/// Records events from any thread, in order.
final class Recorder<Element: Sendable>: Sendable {
    /// Guards the recorded events.
    private let events = PromiseMutex<[Element]>([])
    func record(_ event: Element) { events.withLock { $0.append(event) } }
    var all: [Element] { events.withLock { $0 } }
}

/// A serial queue that knows when code runs on it.
final class TaggedQueue: Sendable {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<String>()
    let label: String

    init(_ label: String, attributes: DispatchQueue.Attributes = []) {
        self.label = label
        queue = DispatchQueue(label: label, attributes: attributes)
        queue.setSpecific(key: key, value: label)
    }

    /// Whether the calling code runs on this queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == label }
}

/// Tells whether code runs on the main queue (not the main thread: Swift Testing services the main
/// queue from a worker thread on Linux).
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}

extension Duration {
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

/// A weak reference, to check that a promise is freed.
final class Weak<Object: AnyObject & Sendable>: @unchecked Sendable {
    /// Guards `storage` (a `weak var`, which `Mutex` cannot hold).
    private let lock = NSLock()
    private weak var storage: Object?
    init(_ object: Object?) { storage = object }
    var object: Object? {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
