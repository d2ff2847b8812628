import APlusSuite
import DesignRegistry
import Dispatch
import Foundation
import QNTasks
import TestSupport
import Testing

/// Waits for a QN promise's value through its Thenable side.
private func settled(
    _ promise: QNPromise, timeout: Duration = defaultTestTimeout
) async throws -> Result<PromiseValue, any Error> {
    try await awaitCompletion("the promise", timeout: timeout) { complete in
        promise.then(
            resolvePromise: { complete(.success(.success($0))) },
            rejectPromise: { complete(.success(.failure($0))) }
        )
    }
}

/// A foreign thenable that hands its value over only when told to.
private final class LateThenable: Thenable {
    private let waiting = Recorder<@Sendable (PromiseValue) -> Void>()
    private let value: Int

    init(_ value: Int) { self.value = value }

    func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) {
        waiting.record(resolvePromise)
    }

    var isWaiting: Bool { waiting.count > 0 }

    func fulfil() {
        for resolve in waiting.all { resolve(value) }
    }
}

/// The shared-protocol adaptation beyond what the A+ suite covers.
@Suite("QN shared protocol")
struct QNAPlusTests {
    @Test("then runs its callback on the main queue, after then returns")
    func mainQueue() async throws {
        // `then` is called from a main-queue block, the queue its callback runs on: a callback
        // run before `then` returned would see `returned` empty, and a queued one cannot run
        // before this block ends, however quickly the main queue is serviced. (Recording "then
        // returned" on the test's own thread raced the main queue, which Swift Testing services
        // from another thread.)
        let returned = Recorder<Bool>()
        let seen = Recorder<String>()
        try await waitUntil { done in
            DispatchQueue.main.async {
                defer { returned.record(true) }
                _ = QNAdapter.then(
                    QNAdapter.resolved(1),
                    onFulfilled: { value in
                        seen.record("main:\(MainQueue.isCurrent) after return:\(returned.all == [true])")
                        done()
                        return value
                    },
                    onRejected: nil
                )
            }
        }
        #expect(seen.all == ["main:true after return:true"])
    }

    @Test("a promise resolved with itself rejects with the cycle error")
    func cycle() async throws {
        let deferred = QNAdapter.deferred()
        deferred.resolve(deferred.promise)
        guard case .failure(let error) = try await settled(deferred.promise) else {
            Issue.record("fulfilled")
            return
        }
        #expect(QNAdapter.isCycleError(error))
    }

    @Test("a promise resolved with a typed map of itself rejects with the cycle error")
    func cycleThroughTypedMap() async throws {
        // The map waits for the promise (its source) and the promise would wait for the map: the
        // cycle check follows a typed link's source though the link records nothing. (It hung
        // until the test's timeout before.)
        let deferred = QNAdapter.deferred()
        let mapped = deferred.promise.map(on: .main) { value in value as? Int ?? 0 }
        deferred.resolve(mapped)
        guard case .failure(let error) = try await settled(deferred.promise) else {
            Issue.record("fulfilled")
            return
        }
        #expect(QNAdapter.isCycleError(error))
    }

    @Test("after a task adopted from outside, the cycle check follows the task the step adopts")
    func cycleThroughStepAdoptionAfterEarlyAdoption() async throws {
        let queue = DispatchQueue(label: "qn.cycle-after-early-adoption")
        let deferred = QNAdapter.deferred()
        let gate = QNAsyncManualTask<PromiseValue>()
        let continuation = gate.then(on: queue) { _ in deferred.promise }
        continuation.start()
        // Adopted from outside before the step ran; it stays pending.
        let early = QNAsyncManualTask<PromiseValue>()
        continuation.adopt(early)
        gate.succeed(nil)
        queue.sync {}  // the step ran: the continuation now waits for the deferred promise
        // The deferred promise would wait for the continuation, which waits for it: a cycle. The
        // check must follow the task the step adopted, not the one adopted before it (it did
        // not, and the promise never settled).
        deferred.resolve(continuation)
        guard case .failure(let error) = try await settled(deferred.promise) else {
            Issue.record("fulfilled")
            return
        }
        #expect(QNAdapter.isCycleError(error))
        early.cancel()
    }

    @Test("a callback may return any QN task, which is started and adopted")
    func adoptsTasks() async throws {
        let promise = QNAdapter.then(
            QNAdapter.resolved(2), onFulfilled: { value in QNAsyncBlockTask<Int> { _ in (value as? Int ?? 0) * 10 } },
            onRejected: nil
        )
        #expect(try await settled(promise).get() as? Int == 20)
        let cancelled = QNAdapter.then(
            QNAdapter.resolved(nil),
            onFulfilled: { _ in
                let task = QNAsyncManualTask<Int>()
                task.cancel()
                return task
            },
            onRejected: nil
        )
        guard case .failure(let error) = try await settled(cancelled) else {
            Issue.record("fulfilled")
            return
        }
        #expect(error is CancellationError)
    }

    @Test("deferred: resolving with a pending task, then rejecting: the task's outcome wins")
    func deferredResolveTaskThenReject() async throws {
        let task = QNAsyncManualTask<Int>()
        let deferred = QNAdapter.deferred()
        deferred.resolve(task)
        deferred.reject(TestError(1))
        deferred.resolve(2)
        // Let any (wrong) later call settle the promise before the task finishes.
        try await waitUntil { done in DispatchQueue.main.async { done() } }
        #expect(QNAdapter.state(of: deferred.promise).isPending)
        task.succeed(5)
        #expect(try await settled(deferred.promise).get() as? Int == 5)
    }

    @Test("deferred: resolving with a pending thenable, then with a value: the thenable's value wins")
    func deferredResolveThenableThenValue() async throws {
        let thenable = LateThenable(7)
        let deferred = QNAdapter.deferred()
        deferred.resolve(thenable)
        deferred.resolve(1)
        deferred.reject(TestError(1))
        // The thenable is called in a main-queue hop.
        try await eventually("the thenable is called") { thenable.isWaiting }
        try await waitUntil { done in DispatchQueue.main.async { done() } }
        #expect(QNAdapter.state(of: deferred.promise).isPending)
        thenable.fulfil()
        #expect(try await settled(deferred.promise).get() as? Int == 7)
    }

    @Test("a QN task is a thenable: adopting it starts it")
    func taskIsThenable() async throws {
        let runs = Recorder<Int>()
        let task = QNAsyncBlockTask<Int> { _ in
            runs.record(1)
            return 5
        }
        let deferred = QNAdapter.deferred()
        deferred.resolve(task)
        #expect(try await settled(deferred.promise).get() as? Int == 5)
        #expect(runs.count == 1)
    }

    @Test("nil passes through as nil, not a nested optional")
    func nilValue() async throws {
        let promise = QNAdapter.then(QNAdapter.resolved(nil), onFulfilled: nil, onRejected: nil)
        let value = try await settled(promise).get()
        #expect(value == nil)
        #expect(QNAdapter.state(of: promise).value.map { $0 == nil } == true)
    }

    /// Promises/A+ 2.3.4: unlike FBL, QN does not turn a returned error value into a rejection.
    @Test("a callback that returns an Error value fulfils with it")
    func errorValueFulfils() async throws {
        let promise = QNAdapter.then(QNAdapter.resolved(1), onFulfilled: { _ in TestError(7) }, onRejected: nil)
        #expect(try await settled(promise).get() as? TestError == TestError(7))
    }

    @Test("a rejection passes through then without onRejected, with the same reason")
    func rejectionPassesThrough() async throws {
        let promise = QNAdapter.then(QNAdapter.rejected(CancellationError()), onFulfilled: nil, onRejected: nil)
        guard case .failure(let error) = try await settled(promise) else {
            Issue.record("fulfilled")
            return
        }
        // A rejection with CancellationError stays a rejection (not a cancellation).
        #expect(error is CancellationError)
        #expect(promise.state == .failed)
    }

    @Test("a 100,000-link then chain settles without overflowing the stack, and is freed")
    func longChain() async throws {
        let links = stressSize(100_000)
        let root = QNAdapter.deferred()
        var promise: QNPromise? = root.promise
        for _ in 0..<links {
            promise = QNAdapter.then(promise!, onFulfilled: { ($0 as? Int ?? 0) + 1 }, onRejected: nil)
        }
        let weakLast = Weak(promise)
        let clock = ContinuousClock()
        let start = clock.now
        root.resolve(0)
        #expect(try await settled(promise!, timeout: longTimeout(.seconds(120))).get() as? Int == links)
        print("QN 100,000-link then chain: \(clock.now - start)")
        promise = nil
        try await eventually("the chain is freed", timeout: longTimeout(.seconds(120))) {
            weakLast.object == nil
        }
    }

    @Test("cancelling the tail of a 100,000-link pending chain cancels every link, with a flat stack")
    func cancelLongChain() async throws {
        let links = stressSize(100_000)
        let root = QNAdapter.deferred()
        var chain: [QNPromise] = [root.promise]
        chain.reserveCapacity(links + 1)
        for _ in 0..<links {
            chain.append(QNAdapter.then(chain[chain.count - 1], onFulfilled: nil, onRejected: nil))
        }
        // Each link registers on the previous one in its first step, queued on the main queue by
        // `then`: one main-queue hop after the loop comes after all of them.
        try await waitUntil { done in DispatchQueue.main.async { done() } }
        #expect(chain.allSatisfy { $0.state == .running })
        // Each link's cancellation handler cancels the link before it: run inline, this would
        // nest 100,000 cancels.
        let clock = ContinuousClock()
        let start = clock.now
        chain[chain.count - 1].cancel()
        print("QN cancel of a pending 100,000-link then chain: \(clock.now - start)")
        #expect(chain.allSatisfy { $0.state == .cancelled })
        // As documented, a cancelled task seen as a promise is rejected with CancellationError,
        // and a late resolve of the root changes nothing.
        root.resolve(1)
        #expect(chain.allSatisfy { QNAdapter.state(of: $0).error is CancellationError })
        guard case .failure(let error) = try await settled(chain[chain.count - 1]) else {
            Issue.record("fulfilled")
            return
        }
        #expect(error is CancellationError)
        #expect(chain[0].state == .cancelled)
    }

    @Test("a dropped 100,000-link pending chain is freed without overflowing the stack")
    func droppedPendingChain() async throws {
        var root: APlusDeferred<QNPromise>? = QNAdapter.deferred()
        var promise: QNPromise? = root!.promise
        let weakFirst = Weak(promise)
        for _ in 0..<stressSize(100_000) {
            promise = QNAdapter.then(promise!, onFulfilled: nil, onRejected: nil)
        }
        let weakLast = Weak(promise)
        // Let every link start and register on the previous one.
        try await waitUntil { done in DispatchQueue.main.async { done() } }
        try await waitUntil { done in DispatchQueue.main.async { done() } }
        let clock = ContinuousClock()
        let start = clock.now
        root = nil
        promise = nil
        try await eventually("the chain is freed", timeout: longTimeout(.seconds(120))) {
            weakFirst.object == nil && weakLast.object == nil
        }
        print("QN dropped 100,000-link pending chain freed in: \(clock.now - start)")
    }
}
