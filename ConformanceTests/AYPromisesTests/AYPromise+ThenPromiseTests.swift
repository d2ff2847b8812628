import AYPromises
import Dispatch
import TestSupport
import Testing

@Suite("AY thenPromise")
struct AYThenPromiseTests {
    @Test("thenPromise runs on the main queue; the block settles the next promise through resolve, later")
    func resolvesLater() async throws {
        let onMain = Recorder<Bool>()
        let promise = AYPromise.resolve(1).thenPromise { value, resolve in
            onMain.record(MainQueue.isCurrent)
            DispatchQueue.global().async { resolve((value as! Int) + 1) }
        }
        #expect(try await value(of: promise) as? Int == 2)
        #expect(onMain.all == [true])
    }

    @Test("only the first resolve counts; an error rejects; a promise is adopted")
    func resolveRules() async throws {
        let first = AYPromise.resolve(1).thenPromise { resolve in
            resolve(3)
            resolve(4)
        }
        #expect(try await value(of: first) as? Int == 3)
        let rejected = AYPromise.resolve(1).thenPromise { resolve in resolve(TestError(5)) }
        #expect(try await error(of: rejected) as? TestError == TestError(5))
        let adopted = AYPromise.resolve(1).thenPromise { resolve in resolve(AYPromise.resolve(6)) }
        #expect(try await value(of: adopted) as? Int == 6)
    }

    @Test("a throw before resolve rejects; a throw after resolve is ignored")
    func throwing() async throws {
        let thrown = AYPromise.resolve(1).thenPromise { _ in throw TestError(7) }
        #expect(try await error(of: thrown) as? TestError == TestError(7))
        let late = AYPromise.resolve(1).thenPromise { resolve in
            resolve(8)
            throw TestError(9)
        }
        #expect(try await value(of: late) as? Int == 8)
    }

    @Test("a rejection skips the block and passes on")
    func rejectionPasses() async throws {
        let called = Recorder<Void>()
        let promise = AYPromise.resolve(TestError(10)).thenPromise { resolve in
            called.record(())
            resolve(nil)
        }
        #expect(try await error(of: promise) as? TestError == TestError(10))
        #expect(called.count == 0)
    }

    @Test("thenAsyncPromise runs its block on a global queue, as the original's")
    func thenAsyncPromise() async throws {
        let onMain = Recorder<Bool>()
        let promise = AYPromise.resolve(1).thenAsyncPromise { value, resolve in
            onMain.record(MainQueue.isCurrent)
            resolve((value as! Int) + 1)
        }
        #expect(try await value(of: promise) as? Int == 2)
        #expect(onMain.all == [false])
    }

    @Test("thenPromiseOn runs its block on the queue given, with or without the value")
    func thenPromiseOn() async throws {
        let queue = TaggedQueue("ay.thenPromiseOn")
        let onQueue = Recorder<Bool>()
        let promise = AYPromise.resolve(1)
            .thenPromiseOn(queue.queue) { value, resolve in
                onQueue.record(queue.isCurrent)
                resolve((value as! Int) * 10)
            }
            .thenPromiseOn(queue.queue) { resolve in
                onQueue.record(queue.isCurrent)
                resolve(TestError(3))
            }
        #expect(try await error(of: promise) as? TestError == TestError(3))
        #expect(onQueue.all == [true, true])
    }
}
