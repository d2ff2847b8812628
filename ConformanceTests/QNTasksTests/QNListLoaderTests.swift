import Dispatch
import PromiseRuntime
import QNTasks
import TestSupport
import Testing

// The FBPromise talk's QNListLoader (Reports/originals.md): load the local cache, show it through the progress monitor, then load
// from the network, then aggregate. The services are fakes whose latency is queue hops.

private let localTaskID = "QNListLoader.local"
private let remoteTaskID = "QNListLoader.remote"

/// What the list shows.
private struct ListResponse: Sendable, Equatable {
    enum Source: Sendable { case cache, remote }
    let items: [String]
    let source: Source
}

/// The local database: answers after a few hops.
private struct FakeCache: Sendable {
    let items: [String]
    func load() -> QNAsyncBlockTask<ListResponse> {
        QNAsyncBlockTask(taskID: localTaskID) { _ in ListResponse(items: items, source: .cache) }
    }
}

/// The server: answers after `hops` hops, fails, or waits until cancelled.
private final class FakeServer: Sendable {
    enum Behaviour: Sendable {
        case answer([String], hops: Int)
        case fail(TestError, hops: Int)
        case hang
    }
    let behaviour: Behaviour
    let events: Recorder<String>
    let requested = Signal()
    /// The request kept while the server hangs; guarded by the mutex.
    let inFlight = PromiseMutex<QNAsyncManualTask<[String]>?>(nil)

    init(_ behaviour: Behaviour, events: Recorder<String>) {
        self.behaviour = behaviour
        self.events = events
    }

    func load() -> QNAsyncManualTask<[String]> {
        QNAsyncManualTask(taskID: remoteTaskID) { [self] task in
            events.record("remote requested")
            task.onCancel {
                self.events.record("remote cancelled")
                // A cancelled request is dropped: kept, it would hold the task, whose start block
                // holds the server (a cycle that LeakSanitizer reports).
                self.inFlight.withLock { $0 = nil }
            }
            switch behaviour {
            case .answer(let items, let hops): after(hops: hops, on: .global()) { task.succeed(items) }
            case .fail(let error, let hops): after(hops: hops, on: .global()) { task.fail(error) }
            // Like a network stack, the server keeps the in-flight request (and so the task it
            // will complete) until it answers or the request is cancelled.
            case .hang: inFlight.withLock { $0 = task }
            }
            // Last, so a cancel sent on this signal comes after the request is kept.
            requested.fire()
        }
    }
}

/// The loader's serial task, as the FBPromise talk builds it.
private func makeLoader(
    cache: FakeCache, server: FakeServer, remoteIsOptional: Bool, events: Recorder<String>
)
    -> QNAsyncSerialTask<ListResponse>
{
    QNAsyncSerialTask(
        taskID: "QNListLoader",
        queue: .main,
        buildBlocks: [
            // #1 the local cache (optional: a broken cache must not stop the network load)
            { _ in .optional(cache.load()) },
            // #2 the remote data
            { _ in remoteIsOptional ? .optional(server.load()) : .required(server.load()) },
        ],
        progressMonitor: { subState in
            #expect(MainQueue.isCurrent)
            // Show the cached list at once, before the network answers (the talk's finishedBlock).
            if subState.taskID == localTaskID, let cached = subState.result(as: ListResponse.self) {
                events.record("shown \(cached.items.joined(separator: ","))")
            }
        },
        resultGenerate: { subStates in
            events.record("aggregate")
            let cached = subStates.first { $0.taskID == localTaskID }?.result(as: ListResponse.self)
            if let remote = subStates.first(where: { $0.taskID == remoteTaskID })?.result(as: [String].self) {
                return ListResponse(items: remote, source: .remote)
            }
            return cached ?? ListResponse(items: [], source: .cache)
        }
    )
}

@Suite("QN list loader (the FBPromise talk's flow)")
struct QNListLoaderTests {
    @Test("cache shown first, then the remote list, then aggregated")
    func happyPath() async throws {
        let events = Recorder<String>()
        let server = FakeServer(.answer(["r1", "r2"], hops: 5), events: events)
        let loader = makeLoader(
            cache: FakeCache(items: ["c1"]), server: server, remoteIsOptional: false, events: events)
        let result = try await outcome(of: loader).value
        #expect(result == ListResponse(items: ["r1", "r2"], source: .remote))
        #expect(events.all == ["shown c1", "remote requested", "aggregate"])
    }

    @Test("the remote step fails: the loader fails with its error, after showing the cache")
    func remoteFails() async throws {
        let events = Recorder<String>()
        let server = FakeServer(.fail(TestError(404), hops: 3), events: events)
        let loader = makeLoader(
            cache: FakeCache(items: ["c1"]), server: server, remoteIsOptional: false, events: events)
        #expect(try await outcome(of: loader).error as? TestError == TestError(404))
        #expect(events.all == ["shown c1", "remote requested"])
    }

    @Test("the remote step is optional: its failure leaves the cached list as the result")
    func remoteOptional() async throws {
        let events = Recorder<String>()
        let server = FakeServer(.fail(TestError(500), hops: 3), events: events)
        let loader = makeLoader(cache: FakeCache(items: ["c1"]), server: server, remoteIsOptional: true, events: events)
        #expect(try await outcome(of: loader).value == ListResponse(items: ["c1"], source: .cache))
        #expect(events.all == ["shown c1", "remote requested", "aggregate"])
    }

    @Test("cancelled mid-way: the remote request is cancelled, nothing is aggregated, cancelled once")
    func cancelledMidway() async throws {
        let events = Recorder<String>()
        let server = FakeServer(.hang, events: events)
        let loader = makeLoader(
            cache: FakeCache(items: ["c1"]), server: server, remoteIsOptional: false, events: events)
        let reports = Recorder<String>()
        try await waitUntil { done in
            // Reported on the loader's own serial queue (main), so the check's main-queue hop
            // comes after a second report.
            loader.start(on: .main) { outcome in
                reports.record(outcome.name)
                done()
            }
            DispatchQueue.global().async {
                #expect(server.requested.wait())
                loader.cancel()
            }
        }
        // A main-queue hop lets a wrong aggregate step or second report show up.
        try await waitUntil { done in DispatchQueue.main.async { done() } }
        #expect(reports.all == ["cancelled"])
        #expect(events.all == ["shown c1", "remote requested", "remote cancelled"])
        #expect(server.inFlight.withLock { $0 } == nil, "the cancelled request is dropped")
    }
}
