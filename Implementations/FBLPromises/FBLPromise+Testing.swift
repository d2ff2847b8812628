import Dispatch
public import Foundation

/// Waits until no promise is pending and no promise callback is queued or running, or until
/// `timeout` seconds have passed.
///
/// It waits on ``FBLPromise/dispatchGroup``. Called on the main thread, it keeps the main run loop
/// (and with it the main queue) serviced while it waits, so callbacks that target the main queue
/// still run. Called on any other thread, it blocks until the group is empty; the main queue must
/// then be serviced by someone else (an app's run loop, or the test runner).
///
/// Meant for tests: it sees every promise in the process, including ones other code left pending.
///
/// - Parameter timeout: Seconds to wait at most.
/// - Returns: `true` if all promise work finished, `false` on timeout.
@available(*, noasync, message: "blocks a thread of the cooperative pool; call it from a test's thread or a queue")
@discardableResult
public func waitForPromises(timeout: TimeInterval) -> Bool {
    let group = fblDispatchGroup
    guard Thread.isMainThread else {
        return group.wait(timeout: .now() + timeout) == .success
    }
    let deadline = Date(timeIntervalSinceNow: timeout)
    while group.wait(timeout: .now()) == .timedOut {
        if Date() >= deadline { return false }
        // Runs the main run loop briefly, which drains the main dispatch queue.
        _ = RunLoop.current.run(mode: .default, before: min(deadline, Date(timeIntervalSinceNow: 0.01)))
    }
    return true
}
