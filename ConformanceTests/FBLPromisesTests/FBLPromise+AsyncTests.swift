import Dispatch
import FBLPromises
import TestSupport
import Testing

@Suite("FBL async initializer")
struct FBLAsyncTests {
    @Test("the work block runs on its queue and settles with fulfil")
    func fulfils() async throws {
        let queue = TaggedQueue("fbl.async")
        let onQueue = Recorder<Bool>()
        let promise = FBLPromise<Int>(on: queue.queue) { fulfill, _ in
            onQueue.record(queue.isCurrent)
            DispatchQueue.global().async { fulfill(1) }
        }
        #expect(try await value(of: promise) == 1)
        #expect(onQueue.all == [true])
    }

    @Test("reject settles with the error; the first call wins")
    func rejectsOnce() async throws {
        let promise = FBLPromise<Int>(on: .global()) { fulfill, reject in
            reject(TestError(1))
            fulfill(2)
            reject(TestError(3))
        }
        #expect(try await error(of: promise) as? TestError == TestError(1))
    }

    @Test("a throwing work block rejects, unless it settled first")
    func throwing() async throws {
        let thrown = FBLPromise<Int>(on: .global()) { _, _ in throw TestError(4) }
        #expect(try await error(of: thrown) as? TestError == TestError(4))
        let settledFirst = FBLPromise<Int>(on: .global()) { fulfill, _ in
            fulfill(5)
            throw TestError(6)
        }
        #expect(try await value(of: settledFirst) == 5)
    }

    @Test("work starts at once, eagerly, with no then attached")
    func eager() async throws {
        try await waitUntil("the work block") { done in
            _ = FBLPromise<Int>(on: .global()) { fulfill, _ in
                done()
                fulfill(0)
            }
        }
    }

    @Test(
        "a promise passed to fulfil is adopted, as google/promises' Objective-C core does: the value it settles with, not the promise"
    )
    func adoptsAPromise() async throws {
        let inner = FBLPromise<any Sendable>.pending()
        let outer = FBLPromise<any Sendable>(on: .global()) { fulfill, _ in fulfill(inner) }
        inner.fulfill(7)
        #expect(try await value(of: outer) as? Int == 7)

        // A promise of another value type too, and a rejection carries over.
        let typed = FBLPromise<Int>(on: .global()) { fulfill, _ in fulfill(8) }
        let adoptingTyped = FBLPromise<any Sendable>(on: .global()) { fulfill, _ in fulfill(typed) }
        #expect(try await value(of: adoptingTyped) as? Int == 8)
        let failing = FBLPromise<Int>(on: .global()) { _, reject in reject(TestError(9)) }
        let adoptingFailure = FBLPromise<any Sendable>(on: .global()) { fulfill, _ in fulfill(failing) }
        #expect(try await error(of: adoptingFailure) as? TestError == TestError(9))
    }

    @Test("a promise typed to hold promises fulfils with the promise it is given, not its value")
    func holdsPromises() async throws {
        let inner = FBLPromise<Int>(5)
        let outer = FBLPromise<FBLPromise<Int>>(on: .global()) { fulfill, _ in fulfill(inner) }
        #expect(try await value(of: outer) === inner)
    }
}
