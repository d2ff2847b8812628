import BatchedPromises
import Dispatch
import TestSupport
import Testing

@Suite("Batched: the resolver")
struct ResolverTests {
    @Test("resolve(Result) adopts a completion handler's Result as it is")
    func resolveResult() async throws {
        func fetch(_ id: Int, completion: @escaping @Sendable (Result<Int, TestError>) -> Void) {
            DispatchQueue.global().async { completion(id > 0 ? .success(id * 10) : .failure(TestError(id))) }
        }
        let found = Promise<Int, TestError> { resolver in fetch(4, completion: resolver.resolve) }
        let missing = Promise<Int, TestError> { resolver in fetch(-1, completion: resolver.resolve) }
        #expect(try await value(of: found) == 40)
        #expect(try await outcome(of: missing).failure == TestError(-1))
    }

    @Test("resolve(Promise) settles as the other promise does")
    func resolvePromise() async throws {
        let (later, laterResolver) = Promise<Int, TestError>.makePending()
        let (promise, resolver) = Promise<Int, TestError>.makePending()
        resolver.resolve(later)
        #expect(promise.isPending)
        laterResolver.reject(TestError(2))
        #expect(try await outcome(of: promise).failure == TestError(2))
        let settled = Promise<Int, TestError>.makePending()
        settled.resolver.resolve(Promise(value: 9))
        #expect(try await value(of: settled.promise) == 9)
    }

    @Test("only the first settle counts, from many threads at once")
    func firstSettleWins() async throws {
        for _ in 0..<stressSize(200) {
            let (promise, resolver) = Promise<Int, Never>.makePending()
            DispatchQueue.concurrentPerform(iterations: 8) { index in resolver.fulfill(index) }
            guard case .fulfilled(let winner)? = promise.currentOutcome else {
                Issue.record("not fulfilled")
                return
            }
            #expect((0..<8).contains(winner))
            let seen = Recorder<Int>()
            try await waitUntil { done in
                promise.whenComplete(on: .global()) { outcome in
                    if case .fulfilled(let value) = outcome { seen.record(value) }
                    done()
                }
            }
            #expect(seen.all == [winner])
        }
    }

    @Test("onCancel runs when the promise is cancelled, at once if it was; never when it settles otherwise")
    func onCancel() async throws {
        let ran = Recorder<String>()
        let (cancelled, cancelledResolver) = Promise<Int, Never>.makePending()
        cancelledResolver.onCancel { ran.record("first") }
        #expect(!cancelledResolver.isCancelled)
        cancelled.cancel()
        #expect(cancelledResolver.isCancelled)
        cancelledResolver.onCancel { ran.record("late") }
        let (fulfilled, fulfilledResolver) = Promise<Int, Never>.makePending()
        fulfilledResolver.onCancel { ran.record("never") }
        fulfilledResolver.fulfill(1)
        fulfilled.cancel()
        #expect(ran.all == ["first", "late"])
        #expect(fulfilled.currentOutcome == .fulfilled(1))
    }

    @Test("a settle after a cancellation is ignored")
    func settleAfterCancel() {
        let (promise, resolver) = Promise<Int, Never>.makePending()
        promise.cancel()
        resolver.fulfill(1)
        #expect(promise.currentOutcome?.isCancelled == true)
    }
}

@Suite("Batched: the resolver, cycles")
struct ResolverCycleTests {
    @Test("a promise resolved with itself is rejected with SelfResolutionError (Promises/A+ 2.3.1)")
    func selfResolutionRejects() async throws {
        let (promise, resolver) = Promise<Int, any Error>.makePending()
        resolver.resolve(promise)
        #expect(try await outcome(of: promise).failure is SelfResolutionError)
    }

    @Test("two promises resolved with each other are both rejected with SelfResolutionError")
    func twoPromiseCycleRejects() async throws {
        let (first, firstResolver) = Promise<Int, any Error>.makePending()
        let (second, secondResolver) = Promise<Int, any Error>.makePending()
        firstResolver.resolve(second)
        secondResolver.resolve(first)
        #expect(try await outcome(of: first).failure is SelfResolutionError)
        #expect(try await outcome(of: second).failure is SelfResolutionError)
    }

    @Test("a flatMap callback that returns the promise flatMap returned rejects it with SelfResolutionError")
    func flatMapReturningItselfRejects() async throws {
        let returned = Recorder<Promise<Int, any Error>>()
        let (root, resolver) = Promise<Int, any Error>.makePending()
        let promise = root.flatMap(on: .global()) { _ in returned.all[0] }
        returned.record(promise)
        resolver.fulfill(1)
        #expect(try await outcome(of: promise).failure is SelfResolutionError)
        returned.removeAll()
    }

    @Test("a recover callback that returns the promise recover returned rejects it with SelfResolutionError")
    func recoverReturningItselfRejects() async throws {
        let returned = Recorder<Promise<Int, any Error>>()
        let (root, resolver) = Promise<Int, TestError>.makePending()
        let promise: Promise<Int, any Error> = root.recover(on: .global()) { _ in returned.all[0] }
        returned.record(promise)
        resolver.reject(TestError(1))
        #expect(try await outcome(of: promise).failure is SelfResolutionError)
        returned.removeAll()
    }

    @Test("a typed promise resolved with itself stops the program, saying why, in every build")
    func typedSelfResolutionStops() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (promise, resolver) = Promise<Int, TestError>.makePending()
            resolver.resolve(promise)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("BatchedPromises: a promise was resolved with itself"))
        #expect(message.contains("Failure is TestError"))
    }

    /// The documented limit of the cycle check (`SelfResolutionError`): a promise adopted twice is
    /// waited on by its second adopter, not forwarded, so a cycle through it is not seen.
    /// Such a cycle keeps its promises alive, as any cycle of references does, until one of them
    /// is cancelled: the test breaks it so, and checks that everything is then freed.
    @Test(
        "a cycle through a promise adopted twice is not seen: the promises stay pending, as documented, until cancelled"
    )
    func cycleThroughDoubleAdoptionStaysPending() async throws {
        try await expectAllFreed("the promises of the cycle, once one is cancelled") {
            let (root, rootResolver) = Promise<Int, any Error>.makePending()
            let (twice, twiceResolver) = Promise<Int, any Error>.makePending()
            let (second, secondResolver) = Promise<Int, any Error>.makePending()
            rootResolver.resolve(twice)  // `twice` forwards to `root`
            secondResolver.resolve(twice)  // adopted again: `second` waits on `root`
            twiceResolver.resolve(second)  // `second` forwards to `root`, which waits on `second`
            // Every adoption of a pending promise happens before `resolve` returns: had the check
            // seen the cycle, the promises would be rejected by now.
            #expect(root.isPending && twice.isPending && second.isPending)
            root.cancel()
            #expect(!root.isPending)
            return [root.storage, twice.storage, second.storage]
        }
    }
}
