import Dispatch
import FBLPromises
import Foundation
import TestSupport
import Testing
import XCTest

@Suite("FBL waitForPromises")
struct FBLTestingTests {
    /// The group is process-wide: in this process it would wait for every FBL promise of every
    /// suite running in parallel, so the test runs in a child process where the group holds only
    /// its own chain.
    @Test("waitForPromises returns true once the chains in flight, main-queue callbacks included, finish")
    func waitsForWork() async {
        await #expect(processExitsWith: .success) { Self.waitsForWorkInChild() }
    }

    /// The child's body: synchronous, as `waitForPromises` blocks its thread.
    static func waitsForWorkInChild() {
        let seen = Recorder<Int>()
        let source = FBLPromise<Int>.pending()
        source.then { seen.record($0) }  // the default queue: main
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) { source.fulfill(1) }
        guard waitForPromises(timeout: defaultTestTimeout.timeInterval) else { exit(1) }
        guard seen.all == [1] else { exit(2) }
    }

    @Test("waitForPromises times out while a promise stays pending")
    func timesOut() async throws {
        let pending = FBLPromise<Int>.pending()
        let finished = try await onBackgroundThread { waitForPromises(timeout: 0.05) }
        #expect(!finished)
        pending.fulfill(0)
    }

    /// Runs a blocking call off the cooperative pool.
    private func onBackgroundThread(_ body: @escaping @Sendable () -> Bool) async throws -> Bool {
        let result = Recorder<Bool>()
        try await waitUntil("the blocking call") { done in
            DispatchQueue.global().async {
                result.record(body())
                done()
            }
        }
        return result.all.first ?? false
    }
}

/// XCTest runs its test methods on the main thread, which is where `waitForPromises` must keep the
/// main queue serviced itself (Swift Testing services it from a worker thread instead).
final class FBLWaitForPromisesMainThreadTests: XCTestCase {
    func testWaitForPromisesServicesTheMainQueueOnTheMainThread() {
        XCTAssertTrue(Thread.isMainThread)
        let seen = Recorder<Bool>()
        let source = FBLPromise<Int>.pending()
        source.then(on: .main) { _ in seen.record(MainQueue.isCurrent) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) { source.fulfill(1) }
        // Blocking the main thread without servicing the main queue would never run the callback.
        XCTAssertTrue(waitForPromises(timeout: defaultTestTimeout.timeInterval))
        XCTAssertEqual(seen.all, [true])
    }
}
