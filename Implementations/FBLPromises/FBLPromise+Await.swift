import Dispatch
import Synchronization

/// Blocks the calling thread until `promise` settles, then returns its value or throws its error.
///
/// Blocking is only safe off the queues the promise's callbacks need. When the promise is still
/// pending and the caller is running on ``FBLPromise/defaultQueue`` (the main queue unless
/// changed), every callback dispatched there would wait behind the blocked caller, so instead of
/// deadlocking this throws ``PromiseError/wouldDeadlock(_:)``. Prefer `try await promise.value`
/// in async code.
///
/// Only the default queue can be detected: blocking any other queue that a pending `then(on:)`
/// of the awaited chain needs still deadlocks.
///
/// - Parameter promise: The promise to wait for.
/// - Returns: The promise's value.
/// - Throws: The promise's error, or ``PromiseError/wouldDeadlock(_:)``.
@available(*, noasync, message: "blocks a thread of the cooperative pool; use `try await promise.value`")
public func awaitPromise<Value: Sendable>(_ promise: FBLPromise<Value>) throws -> Value {
    if let result = promise.result { return try result.get() }
    if DefaultQueueMarker.isRunningOnDefaultQueue {
        throw PromiseError.wouldDeadlock(
            "awaitPromise was called on the default callback queue while the promise is pending; "
                + "call it from another queue or use `await promise.value`"
        )
    }
    let settled = DispatchSemaphore(value: 0)
    promise.addObserver { _ in settled.signal() }
    settled.wait()
    guard let result = promise.result else { preconditionFailure("signalled before settling") }
    return try result.get()
}

/// Tags the current default queue so ``awaitPromise(_:)`` can tell when it runs on it.
enum DefaultQueueMarker {
    private static let key = DispatchSpecificKey<Int>()
    /// The tag of the queue that is the default now; each assignment gets a new tag, so a queue
    /// that stopped being the default no longer matches.
    private static let currentTag = Atomic<Int>(0)

    static func mark(_ queue: DispatchQueue) {
        let tag = currentTag.add(1, ordering: .sequentiallyConsistent).newValue
        queue.setSpecific(key: key, value: tag)
    }

    static var isRunningOnDefaultQueue: Bool {
        _ = FBLPromise<Void>.defaultQueue  // makes sure the initial default is marked
        guard let tag = DispatchQueue.getSpecific(key: key) else { return false }
        return tag == currentTag.load(ordering: .sequentiallyConsistent)
    }
}
