import BatchedPromises
import Dispatch
import TestSupport
import Testing

/// How a promise of this design settled, waited for with the tests' timeout (a promise that never
/// settles fails the test instead of stalling the run). The callback runs on a global queue, so
/// that no test depends on the main queue being serviced unless it says so.
func outcome<Value: Sendable, Failure: Error>(
    of promise: Promise<Value, Failure>, timeout: Duration = defaultTestTimeout
) async throws -> Promise<Value, Failure>.Outcome {
    try await awaitCompletion("a Batched promise", timeout: timeout) { complete in
        promise.whenComplete(on: .global()) { complete(.success($0)) }
    }
}

/// The value `promise` is fulfilled with; records an issue and throws if it is not.
func value<Value: Sendable, Failure: Error>(
    of promise: Promise<Value, Failure>, timeout: Duration = defaultTestTimeout,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> Value {
    let settled = try await outcome(of: promise, timeout: timeout)
    guard case .fulfilled(let value) = settled else {
        Issue.record("expected a value, got \(settled)", sourceLocation: sourceLocation)
        throw TestError(-1)
    }
    return value
}

extension Promise.Outcome {
    /// The failure, if rejected.
    var failure: Failure? {
        if case .rejected(let failure) = self { return failure }
        return nil
    }

    var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }
}

/// A queue whose blocks a test holds back until it lets them go: what is dispatched meanwhile
/// runs, in order, once ``release()`` is called.
final class HeldQueue: Sendable {
    let tagged: TaggedQueue
    var queue: DispatchQueue { tagged.queue }

    init(_ label: String) {
        tagged = TaggedQueue(label)
        tagged.queue.suspend()
    }

    func release() { queue.resume() }
}

/// An object whose lifetime a test watches through a closure that captures it.
final class Sentinel: Sendable {}

/// Runs `make`, lets go of every object it returns (promises' storage, sentinels), and waits until
/// each one is freed: what the leak tests of the operators that wait across an asynchronous step
/// assert for their abandoned case.
func expectAllFreed(_ what: String, _ make: () throws -> [AnyObject]) async throws {
    let references = try make().map { Weak($0) }
    try await eventually(what) { references.allSatisfy { $0.object == nil } }
}
