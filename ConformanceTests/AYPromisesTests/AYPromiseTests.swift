import AYPromises
import Dispatch
import TestSupport
import Testing

/// The core: state, settling once, the resolution procedure every block result goes through.
@Suite("AY core")
struct AYPromiseTests {
    @Test("a pending promise reports pending, then its outcome, and settles only once")
    func settlesOnce() async throws {
        let deferred = pending()
        #expect(deferred.promise.state.isPending)
        deferred.resolve(1)
        deferred.resolve(2)
        deferred.reject(TestError())
        #expect(try await value(of: deferred.promise) as? Int == 1)
        #expect(deferred.promise.state.value.flatMap { $0 as? Int } == 1)

        let rejected = pending()
        rejected.reject(TestError(3))
        rejected.resolve(4)
        #expect(try await error(of: rejected.promise) as? TestError == TestError(3))
        #expect(rejected.promise.state.error as? TestError == TestError(3))
    }

    @Test("resolving with a pending AY promise adopts its outcome, and locks in the first resolve")
    func adoptsPromise() async throws {
        let source = pending()
        let adopting = pending()
        adopting.resolve(source.promise)
        adopting.resolve(5)
        adopting.reject(TestError())
        await afterMainQueueDrains()
        #expect(adopting.promise.state.isPending)
        source.resolve(6)
        #expect(try await value(of: adopting.promise) as? Int == 6)

        let failing = pending()
        failing.resolve(AYPromise.with(TestError(7) as PromiseValue))
        #expect(try await error(of: failing.promise) as? TestError == TestError(7))
    }

    @Test("resolving a promise with itself rejects with the cycle error instead of hanging")
    func resolveWithItself() async throws {
        let deferred = pending()
        deferred.resolve(deferred.promise)
        #expect(try await error(of: deferred.promise) as? AYPromiseError == .cycle)
    }

    @Test("a block that returns its own promise rejects it with the cycle error")
    func blockReturningItself() async throws {
        // Chained from the block's own serial queue, so the block cannot run before `chained`
        // is recorded.
        let queue = TaggedQueue("ay.cycle")
        let holder = Recorder<AYPromise>()
        let chained = queue.queue.sync {
            let chained = AYPromise.resolve(1).thenOn(queue.queue) { _ in holder.all[0] }
            holder.record(chained)
            return chained
        }
        #expect(try await error(of: chained) as? AYPromiseError == .cycle)
    }

    @Test("a foreign thenable is assimilated: only its first call counts, a later throw is ignored")
    func assimilatesThenable() async throws {
        let thenable = ScriptThenable { resolve, reject in
            resolve(10)
            resolve(11)
            reject(TestError())
            throw TestError(99)
        }
        let promise = AYPromise.resolve(thenable)
        #expect(try await value(of: promise) as? Int == 10)
        #expect(thenable.calls == 1)

        let throwing = AYPromise.resolve(ScriptThenable { _, _ in throw TestError(12) })
        #expect(try await error(of: throwing) as? TestError == TestError(12))
    }

    @Test("a thenable that resolves with another thenable is followed again")
    func nestedThenables() async throws {
        let inner = ScriptThenable { resolve, _ in DispatchQueue.global().async { resolve(13) } }
        let outer = ScriptThenable { resolve, _ in resolve(inner) }
        #expect(try await value(of: AYPromise.resolve(outer)) as? Int == 13)
    }

    @Test("nil, a nil inside optionals and Void all fulfil with nil")
    func noValueIsNil() async throws {
        let optionalNil = AYPromise.resolve(nil).thenAsync { _ -> Int? in nil }
        #expect(try await value(of: optionalNil) == nil)
        let nestedNil = AYPromise.resolve(nil).thenAsync { _ -> Int?? in .some(nil) }
        #expect(try await value(of: nestedNil) == nil)
        let void = AYPromise.resolve(1).thenAsync { _ in }
        #expect(try await value(of: void) == nil)
        let wrapped = AYPromise.resolve(nil).thenAsync { _ -> Int? in 14 }
        #expect(try await value(of: wrapped) as? Int == 14)
    }

    @Test("handlers piped onto one promise run in the order they were attached")
    func handlersInOrder() async throws {
        let source = pending()
        let order = Recorder<Int>()
        let queue = TaggedQueue("ay.order")
        let last = (1...5).map { index in
            source.promise.thenOn(queue.queue) { _ in order.record(index) }
        }.last!
        source.resolve(0)
        _ = try await value(of: last)
        #expect(order.all == [1, 2, 3, 4, 5])
    }
}
