import AYPromises
import Dispatch
import TestSupport
import Testing

@Suite("AY catch, catchAsync, catchOn")
struct AYCatchTests {
    @Test("catch runs on the main queue with the error and recovers with what it returns")
    func catchRecovers() async throws {
        let onMain = Recorder<Bool>()
        let promise = AYPromise.resolve(TestError(1)).catch { error in
            onMain.record(MainQueue.isCurrent)
            return "recovered from \((error as! TestError).code)"
        }
        #expect(try await value(of: promise) as? String == "recovered from 1")
        #expect(onMain.all == [true])
    }

    @Test("after a catch handled the error, later thens run and later catches are skipped")
    func laterCatchSkipped() async throws {
        let steps = Recorder<String>()
        let promise = AYPromise.resolve(TestError(2))
            .then { steps.record("skipped then") }
            .catch { _ in steps.record("catch") }
            .catch { _ in steps.record("second catch") }
            .then { value in
                steps.record("then after catch: \(String(describing: value))")
                return 3
            }
        #expect(try await value(of: promise) as? Int == 3)
        #expect(steps.all == ["catch", "then after catch: nil"])
    }

    @Test("catchAsync runs on a global queue")
    func catchAsyncOnGlobal() async throws {
        let onMain = Recorder<Bool>()
        let promise = AYPromise.resolve(TestError(3)).catchAsync { _ in
            dispatchPrecondition(condition: .onQueue(.global()))
            onMain.record(MainQueue.isCurrent)
            return 4
        }
        #expect(try await value(of: promise) as? Int == 4)
        #expect(onMain.all == [false])
    }

    @Test("catchOn runs on the queue given")
    func catchOnQueue() async throws {
        let queue = TaggedQueue("ay.catchOn")
        let onQueue = Recorder<Bool>()
        let promise = AYPromise.resolve(TestError(5)).catchOn(queue.queue) { onQueue.record(queue.isCurrent) }
        #expect(try await value(of: promise) == nil)
        #expect(onQueue.all == [true])
    }

    @Test("a catch that returns or throws an error rejects again, and the next catch gets it")
    func catchRejectsAgain() async throws {
        let seen = Recorder<Int>()
        let promise = AYPromise.resolve(TestError(6))
            .catchAsync { error in
                seen.record((error as! TestError).code)
                return TestError(7)
            }
            .catchAsync { error in
                seen.record((error as! TestError).code)
                throw TestError(8)
            }
        #expect(try await error(of: promise) as? TestError == TestError(8))
        #expect(seen.all == [6, 7])
    }

    @Test("a fulfilment skips catch blocks and passes on unchanged")
    func fulfilmentSkips() async throws {
        let called = Recorder<String>()
        let promise = AYPromise.resolve(9)
            .catch { _ in called.record("catch") }
            .catchAsync { _ in called.record("catchAsync") }
            .catchOn(.global()) { called.record("catchOn") }
        #expect(try await value(of: promise) as? Int == 9)
        #expect(called.all.isEmpty)
    }
}
