import AYPromises
import Dispatch
import FBLPromises
import QNTasks
import QXPromises
import TestSupport
import Testing

// Scenario 4: parallel, first result: ask several mirrors for the same file and take the first
// answer. Mirror "fast" answers after a hop, "slow" never answers by itself, "broken" fails after
// a hop, "good" answers after a few hops.

/// The mirrors: `file@mirror` answers according to the mirror's name.
private func mirrors(_ log: Recorder<String> = Recorder()) -> FakeEndpoint<String, String> {
    FakeEndpoint(
        "get", log: log,
        latency: { mirror in
            switch mirror {
            case "slow": return .never
            case "good": return .hops(4)
            default: return .hops(1)
            }
        },
        reply: { mirror in mirror == "broken" ? .failure(TestError(500)) : .success("file@\(mirror)") }
    )
}

// MARK: - The four styles

/// FBL: `race` settles like the first input to settle, fulfilled or rejected. No cancellation:
/// the caller keeps the losing requests' handles and stops them itself (here in `always`).
private func fblFirst(_ get: FakeEndpoint<String, String>, from names: [String]) -> FBLPromise<String> {
    race(names.map { get.fbl($0) })
        .always { get.inFlight.forEach { $0.cancel() } }
}

/// AY: `AYPromise.race` fulfils with the first *fulfilled* input; it rejects only when every
/// input rejected. No cancellation either.
private func ayFirst(_ get: FakeEndpoint<String, String>, from names: [String]) -> AYPromise {
    AYPromise.race(names.map { get.ay($0) })
}

/// QX has no race: users build one from a pending promise whose resolver takes the first call
/// (later calls are ignored), rejecting once every input has rejected.
private func qxFirst(_ get: FakeEndpoint<String, String>, from names: [String]) -> QXPromise {
    let (first, resolver) = QXPromise.pending()
    let failures = Recorder<any Error>()
    for name in names {
        get.qx(name)
            .then { value in
                resolver.fulfill(value)
                return nil
            }
            .catch { error in
                failures.record(error)
                if failures.count == names.count { resolver.reject(error) }
                return nil
            }
    }
    return first.finally { get.inFlight.forEach { $0.cancel() } }
}

/// QN: `QNAsyncParallelTask(firstSuccessOf:)` succeeds with the first success and cancels the
/// others (their requests are stopped through `onCancel`).
private func qnFirst(_ get: FakeEndpoint<String, String>, from names: [String]) -> QNAsyncParallelTask<String> {
    QNAsyncParallelTask(taskID: "first", firstSuccessOf: names.map { get.qn($0) })
}

/// Swift concurrency: a task group whose first success ends it; `cancelAll()` cancels the other
/// children (their requests are stopped through the cancellation handler). When every child
/// failed, the last error is thrown.
private func swiftConcurrencyFirst(_ get: FakeEndpoint<String, String>, from names: [String]) async throws -> String {
    try await withThrowingTaskGroup(of: Result<String, any Error>.self) { group in
        for name in names {
            group.addTask {
                do {
                    return .success(try await get.async(name))
                } catch {
                    return .failure(error)
                }
            }
        }
        var lastError: (any Error)?
        for try await result in group {
            switch result {
            case .success(let file):
                group.cancelAll()
                return file
            case .failure(let error): lastError = error
            }
        }
        throw lastError!
    }
}

@Suite("Scenario 4: parallel, first result")
struct ParallelFirstTests {
    @Test("FBL: race takes the fast mirror; the slow request is stopped by the caller's always")
    func fbl() async throws {
        let log = Recorder<String>()
        let get = mirrors(log)
        #expect(try await outcome(of: fblFirst(get, from: ["slow", "fast"])).get() == "file@fast")
        #expect(log.all.contains("✕ get(slow)"))  // by the caller's code, not by FBL
        #expect(get.inFlight.isEmpty)
    }

    @Test("FBL: race settles like the first to settle, even a failure")
    func fblFailureWins() async throws {
        let get = mirrors()
        let result = try await outcome(of: fblFirst(get, from: ["broken", "slow"]))
        #expect(rejection(of: result) as? TestError == TestError(500))
    }

    @Test("AY: race skips the broken mirror and takes the first fulfilled one")
    func ay() async throws {
        let get = mirrors()
        #expect(try await outcome(of: ayFirst(get, from: ["broken", "good"])).get() as? String == "file@good")
    }

    @Test("AY: when every mirror fails, race rejects with every error, in input order")
    func ayAllFail() async throws {
        let get = mirrors()
        let error = rejection(of: try await outcome(of: ayFirst(get, from: ["broken", "broken"])))
        #expect((error as? AYRaceRejectedError)?.internalErrors.count == 2)
    }

    @Test("AY: a losing request goes on after race fulfilled (no cancellation)")
    func ayLoserGoesOn() async throws {
        let get = mirrors()
        #expect(try await outcome(of: ayFirst(get, from: ["slow", "fast"])).get() as? String == "file@fast")
        try await get.waitForCalls(2)
        #expect(get.inFlight.map(\.name) == ["get(slow)"])
        get.inFlight.forEach { $0.cancel() }
    }

    @Test("QX: a hand-made first-success (pending + resolver) skips the broken mirror")
    func qx() async throws {
        let get = mirrors()
        #expect(try await outcome(of: qxFirst(get, from: ["broken", "good"])).get() as? String == "file@good")
    }

    @Test("QX: the hand-made race rejects once every mirror failed; finally stops the losers")
    func qxAllFailAndCleanup() async throws {
        let log = Recorder<String>()
        let get = mirrors(log)
        let failed = try await outcome(of: qxFirst(get, from: ["broken", "broken"]))
        #expect(rejection(of: failed) as? TestError == TestError(500))
        #expect(try await outcome(of: qxFirst(get, from: ["slow", "fast"])).get() as? String == "file@fast")
        #expect(log.all.contains("✕ get(slow)"))
    }

    @Test("QN: firstSuccessOf skips the broken mirror, takes the fast one, cancels the slow one")
    func qn() async throws {
        let log = Recorder<String>()
        let get = mirrors(log)
        #expect(try await outcome(of: qnFirst(get, from: ["broken", "slow", "fast"])).value == "file@fast")
        #expect(log.all.contains("✕ get(slow)"))  // by the design, before the outcome was reported
        #expect(get.inFlight.isEmpty)
    }

    @Test("QN: when every sub-task fails, the task fails with QNAllFailedError")
    func qnAllFail() async throws {
        let result = try await outcome(of: qnFirst(mirrors(), from: ["broken", "broken"]))
        #expect((result.error as? QNAllFailedError)?.errors.count == 2)
    }

    @Test("Swift concurrency: a task group skips the broken mirror, takes the fast one, cancels the slow one")
    func swiftConcurrency() async throws {
        let log = Recorder<String>()
        let get = mirrors(log)
        #expect(try await swiftConcurrencyFirst(get, from: ["broken", "slow", "fast"]) == "file@fast")
        #expect(log.all.contains("✕ get(slow)"))  // the group waited for its cancelled child
        #expect(get.inFlight.isEmpty)
    }

    @Test("Swift concurrency: when every mirror fails, the group throws the last error")
    func swiftConcurrencyAllFail() async throws {
        let result = try await awaitOutcome("the task group") {
            try await swiftConcurrencyFirst(mirrors(), from: ["broken", "broken"])
        }
        #expect(rejection(of: result) as? TestError == TestError(500))
    }
}
