import AYPromises
import Dispatch
import TestSupport
import Testing

@Suite("AY pending")
struct AYPendingTests {
    @Test("a pending promise stays pending until resolve, and the first resolve counts")
    func firstResolveCounts() async throws {
        let download = AYPromise.pending()
        await afterMainQueueDrains()
        #expect(download.promise.state.isPending)
        download.resolve("first")
        download.resolve("second")
        download.resolve(TestError(1))
        #expect(try await value(of: download.promise) as? String == "first")
    }

    @Test("an Error rejects, as a block's result does")
    func errorRejects() async throws {
        let download = AYPromise.pending()
        download.resolve(TestError(2))
        #expect(try await error(of: download.promise) as? TestError == TestError(2))
    }

    @Test("a promise given to resolve is adopted")
    func adoptsPromise() async throws {
        let inner = AYPromise.pending()
        let outer = AYPromise.pending()
        outer.resolve(inner.promise)
        await afterMainQueueDrains()
        #expect(outer.promise.state.isPending)
        inner.resolve(3)
        #expect(try await value(of: outer.promise) as? Int == 3)
    }

    @Test("resolve passes on as an AYResolve, callable from any thread")
    func resolveAsCallback() async throws {
        let download = AYPromise.pending()
        let resolve: AYResolve = download.resolve
        DispatchQueue.global().async { resolve(4) }
        #expect(try await value(of: download.promise) as? Int == 4)
    }

    @Test("a thenable given to resolve is asked for its outcome on the queue named")
    func thenableOnQueue() async throws {
        let queue = TaggedQueue("ay.pending")
        let asked = Recorder<Bool>()
        let download = AYPromise.pending(resolvingOn: queue.queue)
        download.resolve(
            ScriptThenable { resolvePromise, _ in
                asked.record(queue.isCurrent)
                resolvePromise(5)
            })
        #expect(try await value(of: download.promise) as? Int == 5)
        #expect(asked.all == [true])
    }
}
