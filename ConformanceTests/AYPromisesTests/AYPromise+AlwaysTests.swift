import AYPromises
import Dispatch
import TestSupport
import Testing

@Suite("AY always")
struct AYAlwaysTests {
    @Test("always runs on the main queue after a fulfilment, with the value; its return value is the result")
    func afterFulfilment() async throws {
        let seen = Recorder<String>()
        let promise = AYPromise.resolve(1).always { value in
            seen.record("\(value!) main:\(MainQueue.isCurrent)")
            return 2
        }
        #expect(try await value(of: promise) as? Int == 2)
        #expect(seen.all == ["1 main:true"])
    }

    @Test("always runs after a rejection, with the error; a block with no return value fulfils with nil")
    func afterRejection() async throws {
        let seen = Recorder<Int>()
        let promise = AYPromise.resolve(TestError(3)).always { outcome in
            seen.record((outcome as! TestError).code)
        }
        #expect(try await value(of: promise) == nil)
        #expect(seen.all == [3])
    }

    @Test("returning the error it was given passes the rejection on; a throw rejects")
    func passesOrRejects() async throws {
        let passed = AYPromise.resolve(TestError(4)).always { outcome in outcome }
        #expect(try await error(of: passed) as? TestError == TestError(4))
        let thrown = AYPromise.resolve(5).always { throw TestError(6) }
        #expect(try await error(of: thrown) as? TestError == TestError(6))
    }

    @Test("a zero-argument always runs on both outcomes")
    func zeroArgument() async throws {
        let count = Recorder<Void>()
        _ = try await value(of: AYPromise.resolve(1).always { count.record(()) })
        _ = try await value(of: AYPromise.resolve(TestError()).always { count.record(()) })
        #expect(count.count == 2)
    }
}
