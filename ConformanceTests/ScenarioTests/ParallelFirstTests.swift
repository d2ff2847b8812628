import Dispatch
import TestSupport
import Testing

// Scenario 4: parallel, first result: ask several mirrors for the same file and take the first
// answer. Mirror "fast" answers after a hop, "slow" never answers by itself, "broken" fails after
// a hop, "good" answers after a few hops.
// Each design's version of this scenario is in its folder beside this file (`FBL/`, `AY/`, …): a
// design adds its own folder and edits nothing here.

/// The mirrors: `file@mirror` answers according to the mirror's name.
func mirrors(_ log: Recorder<String> = Recorder()) -> FakeEndpoint<String, String> {
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

// MARK: - Swift concurrency, the baseline

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
