import DesignRegistry
import Dispatch
import QXPromises
import TestSupport
import Testing

/// The core: creation, settling once, the observable keys, the resolution procedure, chaining by
/// observation and the callback queue.
@Suite("QX core")
struct QXPromiseTests {
    @Test("the work runs at once, on the calling thread, and its fulfil settles the promise")
    func workRunsAtOnce() async throws {
        let ran = Recorder<Bool>()
        let promise = QXPromise { fulfill, _ in
            ran.record(true)
            fulfill(1)
        }
        #expect(ran.all == [true])
        #expect(promise.state == .fulfilled)
        #expect(promise.properties.value as? Int == 1)
        #expect(try await value(of: promise) as? Int == 1)
    }

    @Test("a promise settles once; later fulfil and reject calls are ignored")
    func settlesOnce() async throws {
        let (promise, resolver) = QXPromise.pending(on: .global())
        #expect(promise.state == .pending)
        resolver.fulfill(1)
        resolver.fulfill(2)
        resolver.reject(TestError())
        #expect(try await value(of: promise) as? Int == 1)

        let (rejected, rejecter) = QXPromise.pending(on: .global())
        rejecter.reject(TestError(3))
        rejecter.fulfill(4)
        #expect(rejected.error as? TestError == TestError(3))
        #expect(rejected.state == .rejected)
    }

    @Test("a throw from the work rejects")
    func workThrows() async throws {
        let promise = QXPromise(on: .global()) { _, _ in throw TestError(5) }
        #expect(try await error(of: promise) as? TestError == TestError(5))
    }

    @Test("settling announces value (or error) before state, so a state observer can read it")
    func valueBeforeState() {
        let (promise, resolver) = QXPromise.pending(on: .global())
        let seen = Recorder<String>()
        let tokens = [
            promise.observe(\.value, options: [.new]) { _, _ in seen.record("value") },
            promise.observe(\.state, options: [.new]) { promise, change in
                seen.record("state \(change.newValue!) value \(promise.properties.value as? Int ?? -1)")
            },
        ]
        resolver.fulfill(6)
        #expect(seen.all == ["value", "state fulfilled value 6"])
        withExtendedLifetime(tokens) {}
    }

    @Test("resolving with a pending promise observes its state key, and the observer removes itself")
    func followsByObservation() async throws {
        let (source, sourceResolver) = QXPromise.pending(on: .global())
        let (promise, resolver) = QXPromise.pending(on: .global())
        #expect(source.observerCount == 0)
        resolver.fulfill(source)
        #expect(source.observerCount == 1)
        #expect(promise.state == .pending)
        sourceResolver.fulfill(7)
        #expect(try await value(of: promise) as? Int == 7)
        #expect(source.observerCount == 0)
    }

    @Test("a promise that follows an already-settled promise settles (the article's KVO never fired)")
    func followsSettledPromise() async throws {
        let settled = QXPromise(fulfilledWith: 8)
        let promise = QXPromise(on: .global()) { fulfill, _ in fulfill(settled) }
        #expect(try await value(of: promise) as? Int == 8)
        let rejected = QXPromise(on: .global()) { fulfill, _ in fulfill(QXPromise(rejectedWith: TestError(9))) }
        #expect(try await error(of: rejected) as? TestError == TestError(9))
    }

    @Test("resolving a promise with itself rejects with the cycle error")
    func resolveWithItself() async throws {
        let (promise, resolver) = QXPromise.pending(on: .global())
        resolver.fulfill(promise)
        #expect(try await error(of: promise) as? QXPromiseError == .cycle)
    }

    @Test("a then block that returns its own promise rejects it with the cycle error")
    func thenReturningItself() async throws {
        let holder = Recorder<QXPromise>()
        let (source, resolver) = QXPromise.pending(on: .global())
        let link = source.then(on: .global()) { _ in holder.all[0] }
        holder.record(link)
        resolver.fulfill(1)
        #expect(try await error(of: link) as? QXPromiseError == .cycle)
    }

    // Regression (found by LeakSanitizer): the failed step kept its block for `retry`, the block
    // held the link through `holder`, and the rejected link was never freed.
    @Test("a link rejected for returning itself is freed once settled")
    func thenReturningItselfIsFreed() async throws {
        let weakLink: Weak<QXPromise>
        do {
            let holder = Recorder<QXPromise>()
            let (source, resolver) = QXPromise.pending(on: .global())
            let link = source.then(on: .global()) { _ in holder.all[0] }
            holder.record(link)
            weakLink = Weak(link)
            resolver.fulfill(1)
            #expect(try await error(of: link) as? QXPromiseError == .cycle)
            #expect(link.valueKeptForRetry == nil)
        }
        try await eventually("the rejected link is freed") { weakLink.object == nil }
    }

    @Test("resolving with a foreign thenable assimilates it; only its first call counts")
    func resolveWithThenable() async throws {
        let thenable = ScriptThenable { resolve, reject in
            resolve(10)
            resolve(11)
            reject(TestError())
            throw TestError(99)
        }
        let promise = QXPromise(on: .global()) { fulfill, _ in fulfill(thenable) }
        #expect(try await value(of: promise) as? Int == 10)
        #expect(thenable.calls == 1)

        let throwing = QXPromise(on: .global()) { fulfill, _ in fulfill(ScriptThenable { _, _ in throw TestError(12) })
        }
        #expect(try await error(of: throwing) as? TestError == TestError(12))
    }

    @Test("blocks run on the link's queue, never before then returns")
    func callbackQueue() async throws {
        let queue = TaggedQueue("qx.callbacks")
        let settled = QXPromise(fulfilledWith: 1)
        let thenReturned = Recorder<Bool>()
        let observations = Recorder<String>()
        try await waitUntil { done in
            queue.queue.sync {
                settled.then(on: queue.queue) { value in
                    observations.record("queue \(queue.isCurrent), after then \(!thenReturned.all.isEmpty)")
                    done()
                    return value
                }
                thenReturned.record(true)
            }
        }
        #expect(observations.all == ["queue true, after then true"])
    }

    @Test("a dropped pending promise whose resolver is gone is freed")
    func droppedPendingPromise() async throws {
        var promise: QXPromise? = QXPromise { _, _ in }
        let weakPromise = Weak(promise)
        promise = nil
        try await eventually("the promise to be freed") { weakPromise.object == nil }
    }

    @Test("the adapter's state mirrors the observable keys")
    func currentState() {
        #expect(QXAdapter.state(of: QXPromise.pending().promise).isPending)
        #expect(QXAdapter.state(of: QXPromise(fulfilledWith: 3)).value.flatMap { $0 as? Int } == 3)
        #expect(QXAdapter.state(of: QXPromise(rejectedWith: TestError(1))).error as? TestError == TestError(1))
        #expect(QXAdapter.isCycleError(QXPromiseError.cycle))
        #expect(!QXAdapter.isCycleError(TestError()))
        #expect(QXPromiseError.cycle.description.contains("itself"))
        #expect(QXPromiseError.invalidArgument("x").description.contains("x"))
    }

    @Test("init(completion:) wraps a Result-style completion handler: success fulfils, failure rejects")
    func completionResult() async throws {
        @Sendable func fetch(_ id: Int, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
            DispatchQueue.global().async { completion(id < 0 ? .failure(TestError(id)) : .success(id * 2)) }
        }
        #expect(try await value(of: QXPromise { fetch(21, completion: $0) }) as? Int == 42)
        #expect(try await error(of: QXPromise { fetch(-1, completion: $0) }) as? TestError == TestError(-1))
    }

    @Test("init(completion:) wraps an Objective-C-style (value, error) handler: an error wins, nil fulfils with nil")
    func completionPair() async throws {
        @Sendable func fetch(
            _ answer: Int?, _ failure: TestError?, completion: @escaping @Sendable (Int?, (any Error)?) -> Void
        ) {
            DispatchQueue.global().async { completion(answer, failure) }
        }
        #expect(try await value(of: QXPromise { fetch(3, nil, completion: $0) }) as? Int == 3)
        #expect(try await value(of: QXPromise { fetch(nil, nil, completion: $0) }) == nil)
        #expect(try await error(of: QXPromise { fetch(3, TestError(4), completion: $0) }) as? TestError == TestError(4))
    }

    @Test("init(completion:): the first call counts, and a throw before it rejects")
    func completionFirstCallAndThrow() async throws {
        let twice = QXPromise { (completion: @escaping @Sendable (Result<Int, any Error>) -> Void) in
            completion(.success(1))
            completion(.failure(TestError(2)))
        }
        #expect(try await value(of: twice) as? Int == 1)
        let throwing = QXPromise { (_: @escaping @Sendable (Result<Int, any Error>) -> Void) in throw TestError(5) }
        #expect(try await error(of: throwing) as? TestError == TestError(5))
    }
}
