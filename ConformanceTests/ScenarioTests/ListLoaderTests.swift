import AYPromises
import Dispatch
import FBLPromises
import PromiseRuntime
import QNTasks
import QXPromises
import TestSupport
import Testing

// Scenario 7: the list loader of the FBPromise talk (Reports/originals.md): load the local cache
// and show it to the caller at once, then load the remote list, then aggregate the two. Variants:
// the remote request fails (the cache was shown, the caller gets the error once), and the caller
// cancels while the remote request is in flight. QN cancels by design; the promise designs cannot
// cancel a promise, so their users pass a cancellation flag that stops the in-flight request and
// makes the next step throw `CancellationError` (shown below). The FBPromise talk's own QN flow,
// with the cancel from another thread, is in QNTasksTests/QNListLoaderTests; here QN is cancelled
// through Swift concurrency.

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

private let expected = ["r1", "r2", "c1"]

// MARK: - The four styles

/// FBL: `show` runs in a `then` that passes the cached list on; the flag is checked between steps.
private func fblLoadList(
    _ sources: ListSources, flag: CancellationFlag = CancellationFlag(), show: @escaping @Sendable ([String]) -> Void
) -> FBLPromise<[String]> {
    sources.cache.fbl("list")
        .then { cached in show(cached) }
        .then { cached in
            try flag.check()
            flag.onCancel { sources.remote.inFlight.forEach { $0.cancel() } }
            return sources.remote.fbl("list").then { remote in aggregate(cached: cached, remote: remote) }
        }
}

/// AY: the same chain; the `then` that shows the cache must return it to pass it on.
private func ayLoadList(
    _ sources: ListSources, flag: CancellationFlag = CancellationFlag(), show: @escaping @Sendable ([String]) -> Void
) -> AYPromise {
    sources.cache.ay("list")
        .then { cached in
            show(cached as! [String])
            return cached
        }
        .then { cached in
            try flag.check()
            flag.onCancel { sources.remote.inFlight.forEach { $0.cancel() } }
            return sources.remote.ay("list").then { remote in
                aggregate(cached: cached as! [String], remote: remote as! [String])
            }
        }
}

/// QX: the cache is reported through the design's progress channel, `(proportion, value)`. The
/// handler is registered before the work starts: progress is observed with `.new` only, so a
/// handler added after a report never sees it.
private func qxLoadList(
    _ sources: ListSources, flag: CancellationFlag = CancellationFlag(),
    progress: @escaping @Sendable (Double, PromiseValue) -> Void = { _, _ in }
) -> QXPromise {
    let (list, resolver) = QXPromise.pending()
    list.progress(progress)
    let remote = sources.cache.qx("list").then { cached in
        resolver.progress(0.5, cached)
        try flag.check()
        flag.onCancel { sources.remote.inFlight.forEach { $0.cancel() } }
        return sources.remote.qx("list").then { remote in
            aggregate(cached: cached as! [String], remote: remote as! [String])
        }
    }
    resolver.fulfill(remote)  // the list follows the chain (a QXPromise is observed)
    return list
}

/// QN: a serial task; the progress monitor shows the cache, `resultGenerate` aggregates.
private func qnLoadList(
    _ sources: ListSources, show: @escaping @Sendable ([String]) -> Void
)
    -> QNAsyncSerialTask<[String]>
{
    QNAsyncSerialTask(
        taskID: "list",
        buildBlocks: [
            { _ in .optional(sources.cache.qn("list")) },  // a broken cache must not stop the load
            { _ in .required(sources.remote.qn("list")) },
        ],
        progressMonitor: { subState in
            if subState.taskID == "cache(list)", let cached = subState.result(as: [String].self) { show(cached) }
        },
        resultGenerate: { subStates in
            aggregate(
                cached: subStates[0].result(as: [String].self) ?? [], remote: subStates[1].result(as: [String].self)!)
        }
    )
}

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
private final class Screen: Sendable {
    let shown = Recorder<[String]>()
    var show: @Sendable ([String]) -> Void { { [shown] in shown.record($0) } }
}

@Suite("Scenario 7: the list loader (cache first, then remote, then aggregate)")
struct ListLoaderTests {
    // MARK: FBL

    @Test("FBL: the cache is shown before the remote request starts; the result is aggregated")
    func fbl() async throws {
        let sources = ListSources(remote: .answers)
        let screen = Screen()
        #expect(try await outcome(of: fblLoadList(sources, show: screen.show)).get() == expected)
        #expect(screen.shown.all == [["c1", "r1"]])
        #expect(sources.log.all == ["→ cache(list)", "← cache(list)", "→ remote(list)", "← remote(list)"])
    }

    @Test("FBL: the remote request fails: the cache was shown, the caller gets the error")
    func fblFails() async throws {
        let sources = ListSources(remote: .fails)
        let screen = Screen()
        let result = try await outcome(of: fblLoadList(sources, show: screen.show))
        #expect(rejection(of: result) as? TestError == TestError(503))
        #expect(screen.shown.all == [["c1", "r1"]])
    }

    @Test("FBL: no cancellation; a caller's flag stops the request, the chain rejects with CancellationError")
    func fblFlag() async throws {
        let sources = ListSources(remote: .hangs)
        let flag = CancellationFlag()
        let promise = fblLoadList(sources, flag: flag) { _ in }
        try await sources.remote.waitForCalls()
        flag.cancel()
        #expect(rejection(of: try await outcome(of: promise)) is CancellationError)
        #expect(sources.log.all.last == "✕ remote(list)")
    }

    // MARK: AY

    @Test("AY: the cache is shown before the remote request starts; the result is aggregated")
    func ay() async throws {
        let sources = ListSources(remote: .answers)
        let screen = Screen()
        #expect(try await outcome(of: ayLoadList(sources, show: screen.show)).get() as? [String] == expected)
        #expect(screen.shown.all == [["c1", "r1"]])
        #expect(sources.log.all == ["→ cache(list)", "← cache(list)", "→ remote(list)", "← remote(list)"])
    }

    @Test("AY: the remote request fails: the cache was shown, the caller gets the error")
    func ayFails() async throws {
        let sources = ListSources(remote: .fails)
        let screen = Screen()
        let result = try await outcome(of: ayLoadList(sources, show: screen.show))
        #expect(rejection(of: result) as? TestError == TestError(503))
        #expect(screen.shown.all == [["c1", "r1"]])
    }

    @Test("AY: no cancellation; a caller's flag stops the request, the chain rejects with CancellationError")
    func ayFlag() async throws {
        let sources = ListSources(remote: .hangs)
        let flag = CancellationFlag()
        let promise = ayLoadList(sources, flag: flag) { _ in }
        try await sources.remote.waitForCalls()
        flag.cancel()
        #expect(rejection(of: try await outcome(of: promise)) is CancellationError)
        #expect(sources.log.all.last == "✕ remote(list)")
    }

    @Test("AY: the flag set before the remote step: the request never starts")
    func ayFlagEarly() async throws {
        let sources = ListSources(remote: .answers)
        let flag = CancellationFlag()
        flag.cancel()
        let promise = ayLoadList(sources, flag: flag) { _ in }
        #expect(rejection(of: try await outcome(of: promise)) is CancellationError)
        #expect(sources.log.all == ["→ cache(list)", "← cache(list)"])
    }

    // MARK: QX

    @Test("QX: the cache arrives through progress, before the aggregated result")
    func qx() async throws {
        let sources = ListSources(remote: .answers)
        let events = Recorder<String>()
        let list = qxLoadList(sources) { proportion, cached in
            events.record("progress \(proportion) \(cached as! [String])")
        }
        let result = try await awaitCompletion("the QX list") { complete in
            list.then { value in
                events.record("result")
                complete(.success(value as! [String]))
                return nil
            }
        }
        #expect(result == expected)
        #expect(events.all == ["progress 0.5 [\"c1\", \"r1\"]", "result"])
    }

    @Test("QX: the remote request fails: progress came first, then the error")
    func qxFails() async throws {
        let sources = ListSources(remote: .fails)
        let events = Recorder<String>()
        let list = qxLoadList(sources) { proportion, _ in events.record("progress \(proportion)") }
        let caught = try await awaitCompletion("the QX error") { complete in
            list.catch { error in
                events.record("error")
                complete(.success(error as! TestError))
                return nil
            }
        }
        #expect(caught == TestError(503))
        #expect(events.all == ["progress 0.5", "error"])
    }

    @Test("QX: no cancellation; a caller's flag stops the request, the list rejects with CancellationError")
    func qxFlag() async throws {
        let sources = ListSources(remote: .hangs)
        let flag = CancellationFlag()
        let list = qxLoadList(sources, flag: flag)
        try await sources.remote.waitForCalls()
        flag.cancel()
        #expect(rejection(of: try await outcome(of: list)) is CancellationError)
        #expect(sources.log.all.last == "✕ remote(list)")
    }

    // MARK: QN

    @Test("QN: the progress monitor shows the cache (main queue) before the remote request starts")
    func qn() async throws {
        let sources = ListSources(remote: .answers)
        let events = Recorder<String>()
        let loader = qnLoadList(sources) { cached in
            #expect(MainQueue.isCurrent)
            events.record("shown \(cached)")
        }
        #expect(try await outcome(of: loader).value == expected)
        #expect(events.all == ["shown [\"c1\", \"r1\"]"])
        #expect(sources.log.all == ["→ cache(list)", "← cache(list)", "→ remote(list)", "← remote(list)"])
    }

    @Test("QN: the remote request fails: the cache was shown, the task fails once, nothing aggregated")
    func qnFails() async throws {
        let sources = ListSources(remote: .fails)
        let screen = Screen()
        let result = try await outcome(of: qnLoadList(sources, show: screen.show))
        #expect(result.error as? TestError == TestError(503))
        #expect(screen.shown.all == [["c1", "r1"]])
    }

    @Test("QN: cancelling the Swift Task that awaits the loader cancels the remote request")
    func qnCancelledThroughConcurrency() async throws {
        let sources = ListSources(remote: .hangs)
        let screen = Screen()
        let loader = qnLoadList(sources, show: screen.show)
        let waiting = Task { try await loader.value }  // starts the task
        try await sources.remote.waitForCalls()
        // The request is logged from inside the remote task's start block, which runs on the main
        // queue and registers its cancellation handler only after the call returns; a main-queue
        // hop queued now runs after that block, so the cancel below finds the handler.
        try await mainQueueDrained()
        waiting.cancel()
        let result = try await awaitOutcome("the awaiting Task") { try await waiting.value }
        #expect(rejection(of: result) is CancellationError)
        #expect(loader.state == .cancelled)
        #expect(sources.log.all.last == "✕ remote(list)")
        #expect(screen.shown.all == [["c1", "r1"]])
    }

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
