import Dispatch
import PromiseRuntime
import TestSupport
import Testing

// Scenario 7: the list loader of the FBPromise talk (Reports/originals.md): load the local cache
// and show it to the caller at once, then load the remote list, then aggregate the two. Variants:
// the remote request fails (the cache was shown, the caller gets the error once), and the caller
// cancels while the remote request is in flight. QN cancels by design; the promise designs cannot
// cancel a promise, so their users pass a cancellation flag that stops the in-flight request and
// makes the next step throw `CancellationError` (shown in their folders). The FBPromise talk's own
// QN flow, with the cancel from another thread, is in QNTasksTests/QNListLoaderTests; here QN is
// cancelled through Swift concurrency.
// Each design's version of this scenario is in its folder beside this file (`FBL/`, `AY/`, …): a
// design adds its own folder and edits nothing here.

/// The list's two sources.
struct ListSources: Sendable {
    enum Remote: Sendable { case answers, fails, hangs }

    let log = Recorder<String>()
    let cache: FakeEndpoint<String, [String]>
    let remote: FakeEndpoint<String, [String]>

    init(remote behaviour: Remote) {
        cache = FakeEndpoint("cache", log: log, latency: { _ in .hops(1) }) { _ in .success(["c1", "r1"]) }
        remote = FakeEndpoint(
            "remote", log: log, latency: { _ in behaviour == .hangs ? .never : .hops(3) },
            reply: { _ in behaviour == .fails ? .failure(TestError(503)) : .success(["r1", "r2"]) })
    }
}

/// The aggregate: the remote list, then the cached items it lacks.
func aggregate(cached: [String], remote: [String]) -> [String] {
    remote + cached.filter { !remote.contains($0) }
}

/// What the promise designs' users write instead of cancellation: a flag the caller sets, which
/// also stops the request in flight; each step checks it before going on.
final class CancellationFlag: Sendable {
    /// Guards whether the flag is set and the cleanups to run when it is.
    private let state = PromiseMutex<(isSet: Bool, cleanups: [@Sendable () -> Void])>((false, []))

    func cancel() {
        let cleanups = state.withLock { state in
            state.isSet = true
            defer { state.cleanups = [] }
            return state.cleanups
        }
        for cleanup in cleanups { cleanup() }
    }

    /// Throws `CancellationError` once the flag is set.
    func check() throws {
        if state.withLock({ $0.isSet }) { throw CancellationError() }
    }

    /// Runs `cleanup` when the flag is set (at once if it is).
    func onCancel(_ cleanup: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.isSet { return true }
            state.cleanups.append(cleanup)
            return false
        }
        if now { cleanup() }
    }
}

/// The aggregate every style must produce: the remote list, then the cached item it lacks.
let expected = ["r1", "r2", "c1"]

// MARK: - Swift concurrency, the baseline

/// Swift concurrency: the cache, shown at once, then the remote list; a cache that fails is
/// tolerated (`try?`), and cancelling the calling task cancels the request in flight.
private func swiftConcurrencyLoadList(
    _ sources: ListSources, show: @Sendable ([String]) -> Void
) async throws
    -> [String]
{
    let cached = (try? await sources.cache.async("list")) ?? []
    show(cached)
    let remote = try await sources.remote.async("list")
    return aggregate(cached: cached, remote: remote)
}

/// The caller's screen: what was shown, in order.
final class Screen: Sendable {
    let shown = Recorder<[String]>()
    var show: @Sendable ([String]) -> Void { { [shown] in shown.record($0) } }
}

@Suite("Scenario 7: the list loader (cache first, then remote, then aggregate)")
struct ListLoaderTests {
    // MARK: Swift concurrency

    @Test("Swift concurrency: the cache is shown before the remote request starts; the result is aggregated")
    func swiftConcurrency() async throws {
        let sources = ListSources(remote: .answers)
        let screen = Screen()
        #expect(try await swiftConcurrencyLoadList(sources, show: screen.show) == expected)
        #expect(screen.shown.all == [["c1", "r1"]])
        #expect(sources.log.all == ["→ cache(list)", "← cache(list)", "→ remote(list)", "← remote(list)"])
    }

    @Test("Swift concurrency: the remote request fails: the cache was shown, the error is thrown")
    func swiftConcurrencyFails() async throws {
        let sources = ListSources(remote: .fails)
        let screen = Screen()
        let result = try await awaitOutcome("the load") {
            try await swiftConcurrencyLoadList(sources, show: screen.show)
        }
        #expect(rejection(of: result) as? TestError == TestError(503))
        #expect(screen.shown.all == [["c1", "r1"]])
    }

    @Test("Swift concurrency: cancelling the Task cancels the remote request; it throws CancellationError")
    func swiftConcurrencyCancelled() async throws {
        let sources = ListSources(remote: .hangs)
        let screen = Screen()
        let task = Task { try await swiftConcurrencyLoadList(sources, show: screen.show) }
        try await sources.remote.waitForCalls()
        task.cancel()
        let result = try await awaitOutcome("the cancelled task") { try await task.value }
        #expect(rejection(of: result) is CancellationError)
        #expect(sources.log.all.last == "✕ remote(list)")
        #expect(screen.shown.all == [["c1", "r1"]])
    }
}
