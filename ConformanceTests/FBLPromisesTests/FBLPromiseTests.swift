import DesignRegistry
import Dispatch
import FBLPromises
import Foundation
import TestSupport
import Testing

/// The core: creation, settling once, the resolution procedure, inspection, the two primitives.
@Suite("FBL core")
struct FBLPromiseTests {
    @Test("a promise made with a value is fulfilled")
    func initWithValue() {
        let promise = FBLPromise(42)
        #expect(promise.isFulfilled)
        #expect(!promise.isPending)
        #expect(!promise.isRejected)
        #expect(promise.fulfilledValue == 42)
        #expect(promise.error == nil)
    }

    @Test("a promise made with an error is rejected")
    func initWithError() {
        let promise = FBLPromise<Int>(TestError(1))
        #expect(promise.isRejected)
        #expect(promise.fulfilledValue == nil)
        #expect(promise.error as? TestError == TestError(1))
    }

    @Test("a promise made with an Error value is rejected, as in google/promises")
    func initWithErrorValue() {
        let promise = FBLPromise<TestError>(TestError(2))
        #expect(promise.isRejected)
        #expect(promise.error as? TestError == TestError(2))
    }

    @Test("a pending promise settles once; later fulfil and reject calls are ignored")
    func settlesOnce() async throws {
        let promise = FBLPromise<Int>.pending()
        #expect(promise.isPending)
        promise.fulfill(1)
        promise.fulfill(2)
        promise.reject(TestError())
        #expect(promise.fulfilledValue == 1)
        #expect(try await value(of: promise) == 1)

        let rejected = FBLPromise<Int>.pending()
        rejected.reject(TestError(3))
        rejected.fulfill(4)
        #expect(rejected.error as? TestError == TestError(3))
    }

    @Test("fulfilling with an Error value rejects")
    func fulfilWithErrorValue() {
        let promise = FBLPromise<any Error>.pending()
        promise.fulfill(TestError(5))
        #expect(promise.error as? TestError == TestError(5))
    }

    @Test("resolving with a promise adopts its outcome")
    func resolveAdoptsPromise() async throws {
        let source = FBLPromise<Int>.pending()
        let promise = FBLPromise<Int>.pending()
        promise.resolve(source, on: .global())
        #expect(promise.isPending)
        source.fulfill(7)
        #expect(try await value(of: promise) == 7)

        let failing = FBLPromise<Int>.pending()
        failing.resolve(FBLPromise<Int>(TestError(8)), on: .global())
        #expect(try await error(of: failing) as? TestError == TestError(8))
    }

    @Test("resolving a promise with itself rejects with the cycle error instead of hanging")
    func resolveWithItself() async throws {
        let promise = FBLPromise<Int>.pending()
        promise.resolve(promise)
        #expect(try await error(of: promise) as? PromiseError == .cycle)
    }

    @Test("a then callback that returns its own promise rejects it with the cycle error")
    func thenReturningItself() async throws {
        let source = FBLPromise<Int>.pending()
        let holder = Recorder<FBLPromise<Int>>()
        let chained = source.then(on: .global()) { _ -> FBLPromise<Int> in holder.all[0] }
        holder.record(chained)
        source.fulfill(1)
        #expect(try await error(of: chained) as? PromiseError == .cycle)
    }

    @Test("a cycle of two promises adopting each other rejects both with the cycle error")
    func twoPromiseCycle() async throws {
        let first = FBLPromise<Int>.pending()
        let second = FBLPromise<Int>.pending()
        first.resolve(second)
        second.resolve(first)
        #expect(try await error(of: second) as? PromiseError == .cycle)
        #expect(try await error(of: first) as? PromiseError == .cycle)
    }

    @Test("resolved with two promises, a promise waits for the first: the second adopting it closes no cycle")
    func secondAdoptionIsNotFollowed() async throws {
        let promise = FBLPromise<Int>.pending()
        let first = FBLPromise<Int>.pending()
        let second = FBLPromise<Int>.pending()
        promise.resolve(first)
        promise.resolve(second)
        second.resolve(promise)
        first.fulfill(5)
        #expect(try await value(of: promise) == 5)
        #expect(try await value(of: second) == 5)
    }

    @Test("resolving with a foreign thenable assimilates it; only its first call counts")
    func resolveWithThenable() async throws {
        let thenable = ScriptThenable { resolve, reject in
            resolve(10)
            resolve(11)
            reject(TestError())
            throw TestError(99)
        }
        let promise = FBLPromise<Int>.pending()
        promise.resolve(thenable, on: .global())
        #expect(try await value(of: promise) == 10)
        #expect(thenable.calls == 1)
    }

    @Test("a thenable that throws before calling back rejects with the thrown error")
    func thenableThrows() async throws {
        let promise = FBLPromise<Int>.pending()
        promise.resolve(ScriptThenable { _, _ in throw TestError(12) }, on: .global())
        #expect(try await error(of: promise) as? TestError == TestError(12))
    }

    @Test("a thenable resolving with a thenable is followed recursively")
    func nestedThenables() async throws {
        let inner = ScriptThenable { resolve, _ in DispatchQueue.global().async { resolve(13) } }
        let outer = ScriptThenable { resolve, _ in resolve(inner) }
        let promise = FBLPromise<Int>.pending()
        promise.resolve(outer, on: .global())
        #expect(try await value(of: promise) == 13)
    }

    @Test("a thenable resolving a typed promise with the wrong type rejects with typeMismatch")
    func thenableWrongType() async throws {
        let promise = FBLPromise<Int>.pending()
        promise.resolve(ScriptThenable { resolve, _ in resolve("text") }, on: .global())
        let failure = try await error(of: promise) as? PromiseError
        #expect(failure == .typeMismatch(expected: "Int", actual: "String"))
    }

    @Test("resolve(_ value:) adopts a promise or a thenable hidden in a dynamic value")
    func resolveDynamicValue() async throws {
        let adopted = FBLPromise<PromiseValue>.pending()
        adopted.resolve(FBLPromise<PromiseValue>(14), on: .global())
        #expect(try await value(of: adopted) as? Int == 14)

        let assimilated = FBLPromise<PromiseValue>.pending()
        assimilated.resolve(ScriptThenable { resolve, _ in resolve(15) } as PromiseValue, on: .global())
        #expect(try await value(of: assimilated) as? Int == 15)

        let plain = FBLPromise<PromiseValue>.pending()
        plain.resolve(16, on: .global())
        #expect(plain.fulfilledValue.flatMap { $0 as? Int } == 16)
    }

    @Test("observers are called in registration order, on their queues")
    func observeOrder() async throws {
        let queue = TaggedQueue("fbl.observe")
        let promise = FBLPromise<Int>.pending()
        let calls = Recorder<String>()
        try await waitUntil("three observers") { done in
            for index in 1...3 {
                promise.observe(
                    on: queue.queue,
                    fulfill: { value in
                        calls.record("\(index):\(value):\(queue.isCurrent)")
                        if index == 3 { done() }
                    },
                    reject: { _ in calls.record("rejected") }
                )
            }
            promise.fulfill(5)
        }
        #expect(calls.all == ["1:5:true", "2:5:true", "3:5:true"])
    }

    @Test("observing a settled promise dispatches the callback, never running it inside observe")
    func observeSettled() async throws {
        let promise = FBLPromise(1)
        let observeReturned = Recorder<Bool>()
        let ranInline = Recorder<Bool>()
        try await waitUntil { done in
            let queue = TaggedQueue("fbl.settled")
            queue.queue.sync {
                promise.observe(
                    on: queue.queue,
                    fulfill: { _ in
                        ranInline.record(observeReturned.all.isEmpty)
                        done()
                    },
                    reject: { _ in }
                )
                observeReturned.record(true)
            }
        }
        #expect(ranInline.all == [false])
    }

    @Test("chain hands the callback's result to the new promise: value, promise, error, throw")
    func chainResolutions() async throws {
        let source = FBLPromise(2)
        let mapped = source.chain(on: .global(), chainedFulfill: { .value($0 * 10) }, chainedReject: { .error($0) })
        #expect(try await value(of: mapped) == 20)
        let adopted = source.chain(
            on: .global(),
            chainedFulfill: { .promise(FBLPromise($0 + 1)) },
            chainedReject: { .error($0) }
        )
        #expect(try await value(of: adopted) == 3)
        let failed = source.chain(
            on: .global(),
            chainedFulfill: { _ -> FBLPromise<Int>.Resolution in .error(TestError(4)) },
            chainedReject: { .error($0) }
        )
        #expect(try await error(of: failed) as? TestError == TestError(4))
        let thrown = source.chain(
            on: .global(),
            chainedFulfill: { _ -> FBLPromise<Int>.Resolution in throw TestError(5) },
            chainedReject: { .error($0) }
        )
        #expect(try await error(of: thrown) as? TestError == TestError(5))
        let recovered = FBLPromise<Int>(TestError()).chain(
            on: .global(),
            chainedFulfill: { .value($0) },
            chainedReject: { _ in .value(6) }
        )
        #expect(try await value(of: recovered) == 6)
    }

    @Test("a chained promise stays alive until it settles, then is freed")
    func noDeallocUntilResolved() async throws {
        let source = FBLPromise<Int>.pending()
        var chained: FBLPromise<Int>? = source.then(on: .global()) { $0 + 1 }
        let weakChained = Weak(chained)
        let settled = Recorder<Int>()
        try await waitUntil("the chained promise to settle") { done in
            chained?.observe(
                on: .global(),
                fulfill: {
                    settled.record($0)
                    done()
                },
                reject: { _ in }
            )
            chained = nil
            #expect(weakChained.object != nil, "freed while still pending")
            source.fulfill(1)
        }
        #expect(settled.all == [2])
        // Freeing has no signal to wait for: poll, bounded by the helper's timeout.
        try await eventually("the chained promise to be freed") { weakChained.object == nil }
    }

    @Test("a pending promise that is dropped is freed")
    func droppedPendingPromise() {
        var promise: FBLPromise<Int>? = .pending()
        let weakPromise = Weak(promise)
        promise = nil
        #expect(weakPromise.object == nil)
    }

    @Test("dropping a pending 100,000-link chain frees it without overflowing the stack")
    func droppedDeepPendingChain() async throws {
        var head: FBLPromise<Int>? = .pending()
        let weakTail = try await offPool("building the chain") { [head] in
            var tail = head!
            for _ in 0..<stressSize(100_000) {
                tail = tail.then(on: .global()) { $0 + 1 }
            }
            return Weak(tail)
        }
        head = nil
        try await eventually("the chain to be freed", timeout: longTimeout(.seconds(60))) { weakTail.object == nil }
    }

    @Test("a promise typed to hold a thenable holds it as a value instead of assimilating it")
    func thenableAsTypedValue() async throws {
        let thenable = ScriptThenable { resolve, _ in resolve(1) }
        let mapped = FBLPromise(0).then(on: .global()) { _ in thenable }
        #expect(try await value(of: mapped) === thenable)
        // Handed over by a foreign thenable, it is still a value of the promise's type.
        let outer = ScriptThenable { resolve, _ in resolve(thenable) }
        let promise = FBLPromise<ScriptThenable>.pending()
        promise.resolve(outer as any Thenable, on: .global())
        #expect(try await value(of: promise) === thenable)
        #expect(thenable.calls == 0)
        #expect(outer.calls == 1)
    }

    @Test("adopting an FBL promise of another value type observes it on the given queue")
    func crossTypeAdoptionUsesQueue() async throws {
        let queue = TaggedQueue("fbl.adopt")
        let source = FBLPromise<Int>.pending()
        let adopting = FBLPromise<PromiseValue>.pending()
        adopting.resolve(source as PromiseValue, on: queue.queue)
        queue.queue.suspend()
        source.fulfill(5)
        // Settling needs the suspended queue, not the main queue or any other.
        let early = try? await outcome(of: adopting, timeout: .milliseconds(50))
        #expect(early == nil, "settled without the queue it was given")
        queue.queue.resume()
        #expect(try await value(of: adopting) as? Int == 5)
    }

    @Test("the adapter's state mirrors the native inspection API")
    func currentState() {
        #expect(FBLAdapter.state(of: FBLPromise<PromiseValue>.pending()).isPending)
        #expect(FBLAdapter.state(of: FBLPromise<PromiseValue>(3)).value.flatMap { $0 as? Int } == 3)
        #expect(
            FBLAdapter.state(of: FBLPromise<PromiseValue>(TestError(1) as any Error)).error as? TestError
                == TestError(1))
        #expect(FBLAdapter.isCycleError(PromiseError.cycle))
        #expect(!FBLAdapter.isCycleError(TestError()))
    }

    @Test("PromiseError describes itself")
    func errorDescriptions() {
        #expect(PromiseError.cycle.description.contains("itself"))
        #expect(PromiseError.invalidArgument("x").description.contains("x"))
    }

    // MARK: - google/promises' initializers and description

    @Test("FBLPromise() makes a pending promise, as google/promises' Promise()")
    func initPending() {
        let promise = FBLPromise<Int>()
        #expect(promise.isPending)
        promise.fulfill(3)
        #expect(promise.fulfilledValue == 3)
    }

    @Test("a throwing expression given to init(_:) rejects the promise instead of throwing at the call site")
    func initWithThrowingExpression() {
        func failing() throws -> Int { throw TestError(5) }
        func succeeding() throws -> Int { 6 }
        let rejected = FBLPromise<Int>(try failing())
        #expect(rejected.error as? TestError == TestError(5))
        #expect(FBLPromise<Int>(try succeeding()).fulfilledValue == 6)
    }

    @Test("description names the state and outcome in google/promises' words")
    func description() {
        #expect(FBLPromise(42).description == "Fulfilled: 42")
        #expect(FBLPromise<Int?>(nil).description == "Fulfilled: nil")
        #expect(FBLPromise<Int>(TestError(1)).description == "Rejected: \(TestError(1))")
        let pending = FBLPromise<Int>.pending()
        #expect(pending.description == "Pending: Int")
        #expect("\(pending)" == "Pending: Int")
        pending.fulfill(0)
    }
}
