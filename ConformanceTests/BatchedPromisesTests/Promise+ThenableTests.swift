import BatchedPromises
import Dispatch
import TestSupport
import Testing

@Suite("Batched: thenables and the untyped resolution procedure")
struct ThenableTests {
    @Test("a promise is a Thenable: its outcome reaches the callbacks, a cancellation as CancellationError")
    func isThenable() async throws {
        let value: PromiseValue = try await awaitCompletion { complete in
            Promise<Int, Never>(value: 4).then(
                resolvePromise: { complete(.success($0)) }, rejectPromise: { complete(.failure($0)) })
        }
        #expect(value as? Int == 4)
        let (pending, _) = Promise<Int, Never>.makePending()
        pending.cancel()
        let reason: any Error = try await awaitCompletion { complete in
            pending.then(resolvePromise: { _ in }, rejectPromise: { complete(.success($0)) })
        }
        #expect(reason is CancellationError)
    }

    @Test("resolve(_:) on an untyped promise adopts a promise, assimilates a thenable, and fulfils with a plain value")
    func resolutionProcedure() async throws {
        let (adopting, resolver) = Promise<PromiseValue, any Error>.makePending()
        resolver.resolve(Promise<PromiseValue, any Error>(value: 1) as PromiseValue)
        #expect(try await value(of: adopting) as? Int == 1)
        let thenable = ScriptThenable { resolve, _ in resolve(2) }
        let (assimilating, assimilator) = Promise<PromiseValue, any Error>.makePending()
        assimilator.resolve(thenable as PromiseValue)
        #expect(try await value(of: assimilating) as? Int == 2)
        #expect(thenable.calls == 1)
        let (plain, plainResolver) = Promise<PromiseValue, any Error>.makePending()
        plainResolver.resolve("text" as PromiseValue)
        #expect(try await value(of: plain) as? String == "text")
    }

    @Test("a promise resolved with itself is rejected with SelfResolutionError")
    func selfResolution() async throws {
        let (promise, resolver) = Promise<PromiseValue, any Error>.makePending()
        resolver.resolve(promise as PromiseValue)
        #expect(try await outcome(of: promise).failure is SelfResolutionError)
        // The callback returns the promise `then` returned: it is recorded before the source
        // settles, so the callback finds it whichever thread runs first.
        let holder = Recorder<Promise<PromiseValue, any Error>>()
        let (source, sourceResolver) = Promise<PromiseValue, any Error>.makePending()
        let link = source.then(on: .global(), onFulfilled: { _ in holder.all.first }, onRejected: nil)
        holder.record(link)
        sourceResolver.fulfill(1)
        #expect(try await outcome(of: link).failure is SelfResolutionError)
    }

    @Test("the untyped then passes an outcome on when its callback is nil, and a throw rejects")
    func untypedThen() async throws {
        let passed = Promise<PromiseValue, any Error>(value: 1).then(on: .global(), onFulfilled: nil, onRejected: nil)
        #expect(try await value(of: passed) as? Int == 1)
        let thrown = Promise<PromiseValue, any Error>(value: 1).then(
            on: .global(), onFulfilled: { _ in throw TestError(2) }, onRejected: nil)
        #expect(try await outcome(of: thrown).failure as? TestError == TestError(2))
    }
}
