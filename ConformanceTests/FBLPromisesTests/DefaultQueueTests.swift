import Dispatch
import FBLPromises
import Foundation
import TestSupport
import Testing

/// `FBLPromise.defaultQueue` and the deadlock guard of `awaitPromise` that follows it.
///
/// The default queue is one setting for the whole process, and other suites run in parallel and
/// rely on it being the main queue (a `then` without `on:` in a scenario test, say). So every test
/// that changes it runs in a child process of its own (an exit test), and no test of this process
/// ever sees a changed default.
@Suite("FBL default queue", .serialized)
struct DefaultQueueTests {
    @Test("the default queue is the main queue, and every operator uses it")
    func mainByDefault() async throws {
        #expect(FBLPromise<Int>.defaultQueue.label == DispatchQueue.main.label)
        let onMain = Recorder<String>()
        let promise = FBLPromise(1)
            .then { value -> Int in
                onMain.record("then \(MainQueue.isCurrent)")
                return value
            }
            .validate { _ in
                onMain.record("validate \(MainQueue.isCurrent)")
                return true
            }
            .always { onMain.record("always \(MainQueue.isCurrent)") }
        #expect(try await value(of: promise) == 1)
        let failed = FBLPromise<Int>(TestError())
            .catch { _ in onMain.record("catch \(MainQueue.isCurrent)") }
            .recover { _ -> Int in
                onMain.record("recover \(MainQueue.isCurrent)")
                return 2
            }
        #expect(try await value(of: failed) == 2)
        #expect(onMain.all == ["then true", "validate true", "always true", "catch true", "recover true"])
    }

    @Test("changing the default queue moves operators called afterwards (in a child process)")
    func settable() async {
        await #expect(processExitsWith: .success) {
            let queue = TaggedQueue("fbl.default")
            FBLPromise<Int>.defaultQueue = queue.queue
            // One setting for every specialisation.
            guard FBLPromise<String>.defaultQueue === queue.queue else { exit(1) }
            let ran = DispatchSemaphore(value: 0)
            let onQueue = Recorder<Bool>()
            FBLPromise(1).then { _ in
                onQueue.record(queue.isCurrent)
                ran.signal()
            }
            guard ran.wait(timeout: .now() + defaultTestTimeout.timeInterval) == .success, onQueue.all == [true]
            else { exit(2) }
            // Let the chain finish before exiting (LeakSanitizer, in CI's ASan run, checks at exit).
            Self.waitForEveryPromise(orExit: 3)
        }
    }

    @Test("DispatchQueue.promises and DispatchGroup.promises are google/promises' names for the same settings")
    func googleNames() async {
        #expect(DispatchQueue.promises === FBLPromise<Int>.defaultQueue)
        #expect(DispatchGroup.promises === FBLPromise<Int>.dispatchGroup)
        await #expect(processExitsWith: .success) {
            let queue = TaggedQueue("fbl.default.alias")
            DispatchQueue.promises = queue.queue
            guard FBLPromise<Int>.defaultQueue === queue.queue else { exit(1) }
        }
    }

    /// Blocks until every FBL promise of the (child) process has settled, or exits with `code`.
    static func waitForEveryPromise(orExit code: Int32) {
        guard waitForPromises(timeout: defaultTestTimeout.timeInterval) else { exit(code) }
    }

    @Test("awaitPromise on the default queue throws instead of deadlocking")
    func awaitOnDefaultQueue() async throws {
        let pending = FBLPromise<Int>.pending()
        let failure = Recorder<String>()
        try await waitUntil { done in
            DispatchQueue.main.async {
                do {
                    _ = try awaitPromise(pending)
                } catch {
                    failure.record("\(error)")
                }
                done()
            }
        }
        #expect(failure.all.count == 1)
        #expect(failure.all.first?.contains("Refusing to block") == true)
        pending.fulfill(0)
    }

    @Test("awaitPromise on a custom default queue throws too, and the main queue is then allowed (in a child process)")
    func awaitOnCustomDefaultQueue() async {
        await #expect(processExitsWith: .success) {
            let queue = TaggedQueue("fbl.default.await")
            FBLPromise<Int>.defaultQueue = queue.queue
            let pending = FBLPromise<Int>.pending()
            let outcomes = Recorder<String>()
            let ran = DispatchSemaphore(value: 0)
            let wait = defaultTestTimeout.timeInterval
            queue.queue.async {
                outcomes.record((try? awaitPromise(pending)) == nil ? "threw" : "returned")
                ran.signal()
            }
            guard ran.wait(timeout: .now() + wait) == .success else { exit(1) }
            // The main queue is no longer the default: blocking it until the promise settles is
            // allowed. The fulfil is scheduled from inside the blocking block, so it comes while
            // `awaitPromise` waits (unless the global queue is over 20 ms late: then it returns at
            // once, which is also correct).
            DispatchQueue.main.async {
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) { pending.fulfill(1) }
                outcomes.record((try? awaitPromise(pending)) == 1 ? "returned" : "threw")
                ran.signal()
            }
            guard ran.wait(timeout: .now() + wait) == .success else { exit(2) }
            guard outcomes.all == ["threw", "returned"] else { exit(3) }
        }
    }
}
