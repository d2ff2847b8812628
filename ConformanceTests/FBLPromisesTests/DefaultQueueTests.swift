import Dispatch
import FBLPromises
import TestSupport
import Testing

/// Everything that asserts or changes `FBLPromise.defaultQueue`. Serialized, and the only suite
/// that does either: suites running in parallel may briefly see a changed default, so none of them
/// asserts which queue the default is (they pass `on:` where the queue matters), and the
/// Promises/A+ adapter pins its callbacks to the main queue.
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

    @Test("changing the default queue moves operators called afterwards")
    func settable() async throws {
        let queue = TaggedQueue("fbl.default")
        FBLPromise<Int>.defaultQueue = queue.queue
        defer { FBLPromise<Int>.defaultQueue = .main }
        #expect(FBLPromise<String>.defaultQueue === queue.queue, "one setting for every specialisation")
        let promise = FBLPromise(1).then { _ in queue.isCurrent }
        #expect(try await value(of: promise))
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

    @Test("awaitPromise on a custom default queue throws too, and the main queue is then allowed")
    func awaitOnCustomDefaultQueue() async throws {
        let queue = TaggedQueue("fbl.default.await")
        FBLPromise<Int>.defaultQueue = queue.queue
        defer { FBLPromise<Int>.defaultQueue = .main }
        let pending = FBLPromise<Int>.pending()
        let outcomes = Recorder<String>()
        try await waitUntil { done in
            queue.queue.async {
                do {
                    _ = try awaitPromise(pending)
                    outcomes.record("returned")
                } catch {
                    outcomes.record("threw")
                }
                done()
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) { pending.fulfill(1) }
        try await waitUntil { done in
            DispatchQueue.main.async {
                outcomes.record((try? awaitPromise(pending)) == 1 ? "returned" : "threw")
                done()
            }
        }
        #expect(outcomes.all == ["threw", "returned"])
    }
}
