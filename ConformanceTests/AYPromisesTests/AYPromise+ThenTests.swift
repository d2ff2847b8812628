import AYPromises
import Dispatch
import TestSupport
import Testing

@Suite("AY then, thenAsync, thenOn")
struct AYThenTests {
    @Test("then runs its block on the main queue with the value and fulfils with what it returns")
    func thenOnMain() async throws {
        let onMain = Recorder<Bool>()
        let promise = AYPromise.resolve("aaa").then { value in
            onMain.record(MainQueue.isCurrent)
            return (value as! String) + "bbb"
        }
        #expect(try await value(of: promise) as? String == "aaabbb")
        #expect(onMain.all == [true])
    }

    @Test("thenAsync runs its block on a global queue")
    func thenAsyncOnGlobal() async throws {
        let onMain = Recorder<Bool>()
        let promise = AYPromise.resolve(1).thenAsync { value in
            dispatchPrecondition(condition: .onQueue(.global()))
            onMain.record(MainQueue.isCurrent)
            return (value as! Int) + 1
        }
        #expect(try await value(of: promise) as? Int == 2)
        #expect(onMain.all == [false])
    }

    @Test("thenOn runs its block on the queue given")
    func thenOnQueue() async throws {
        let queue = TaggedQueue("ay.thenOn")
        let onQueue = Recorder<Bool>()
        let promise = AYPromise.resolve(2).thenOn(queue.queue) { value in
            onQueue.record(queue.isCurrent)
            return (value as! Int) * 10
        }
        #expect(try await value(of: promise) as? Int == 20)
        #expect(onQueue.all == [true])
    }

    @Test("blocks with zero or one argument are both accepted, with or without a return value")
    func blockShapes() async throws {
        let seen = Recorder<String>()
        let promise = AYPromise.resolve(3)
            .thenAsync { value in seen.record("one:\(value!)") }
            .thenAsync { seen.record("zero") }
            .thenAsync { "no argument, a value" }
            .thenAsync { value in
                seen.record("multi:\(value!)")
                return 4
            }
        #expect(try await value(of: promise) as? Int == 4)
        #expect(seen.all == ["one:3", "zero", "multi:no argument, a value"])
    }

    @Test("a block whose returns have different types, or return nil, is accepted")
    func dynamicReturns() async throws {
        let mixed = AYPromise.resolve(5).thenAsync { value in
            if (value as! Int) > 3 { return "big" }
            return 0
        }
        #expect(try await value(of: mixed) as? String == "big")
        let none = AYPromise.resolve(5).thenAsync { _ in nil }
        #expect(try await value(of: none) == nil)
    }

    @Test("a rejection skips then blocks and passes on")
    func rejectionSkips() async throws {
        let called = Recorder<String>()
        let promise = AYPromise.resolve(TestError(1))
            .then { called.record("then") }
            .thenAsync { called.record("thenAsync") }
            .thenOn(.global()) { called.record("thenOn") }
        #expect(try await error(of: promise) as? TestError == TestError(1))
        #expect(called.all.isEmpty)
    }

    @Test("a returned promise is adopted; a returned foreign thenable is assimilated")
    func adoption() async throws {
        let later = pending()
        let adopted = AYPromise.resolve(1).thenAsync { _ in later.promise }
        DispatchQueue.global().async { later.resolve(2) }
        #expect(try await value(of: adopted) as? Int == 2)

        let thenable = ScriptThenable { resolve, _ in resolve(3) }
        let assimilated = AYPromise.resolve(1).thenAsync { _ in thenable }
        #expect(try await value(of: assimilated) as? Int == 3)
    }

    @Test("a throwing block rejects the next promise")
    func throwRejects() async throws {
        let promise = AYPromise.resolve(1).then { _ in throw TestError(4) }
        #expect(try await error(of: promise) as? TestError == TestError(4))
    }

    @Test("a block never runs before then returns, even on a settled promise")
    func neverSynchronous() async throws {
        // `thenOn` is called on the block's own serial queue: a synchronous block would see
        // `returned` empty; a queued one cannot run before this block ends, whatever the load.
        let returned = Recorder<Bool>()
        let queue = TaggedQueue("ay.async")
        let promise = queue.queue.sync {
            defer { returned.record(true) }
            return AYPromise.resolve(1).thenOn(queue.queue) { _ in returned.all == [true] }
        }
        #expect(try await value(of: promise) as? Bool == true)
    }
}
