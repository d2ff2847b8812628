import Dispatch
import FBLPromises
import TestSupport
import Testing

@Suite("FBL do initializer")
struct FBLDoTests {
    @Test("the work block's value fulfils, on its queue")
    func value() async throws {
        let queue = TaggedQueue("fbl.do")
        let promise = FBLPromise<Bool>(on: queue.queue) { queue.isCurrent }
        #expect(try await FBLPromisesTests.value(of: promise))
    }

    @Test("a thrown error or a returned Error value rejects")
    func errors() async throws {
        let thrown = FBLPromise<Int>(on: .global()) { () throws -> Int in throw TestError(1) }
        #expect(try await error(of: thrown) as? TestError == TestError(1))
        let returned = FBLPromise<any Error>(on: .global()) { () -> any Error in TestError(2) }
        #expect(try await error(of: returned) as? TestError == TestError(2))
    }

    @Test("a returned promise is adopted")
    func adoptsPromise() async throws {
        let promise = FBLPromise<Int>(on: .global()) { FBLPromise<Int>(on: .global()) { 3 } }
        #expect(try await FBLPromisesTests.value(of: promise) == 3)
    }

    @Test("a work block that only throws is not ambiguous: it picks the value form and rejects")
    func blockThatOnlyThrows() async throws {
        let promise = FBLPromise<Int>(on: .global()) { throw TestError(4) }
        #expect(try await error(of: promise) as? TestError == TestError(4))
        // A block returning a promise still picks the promise form.
        let adopted = FBLPromise<Int>(on: .global()) { FBLPromise(5) }
        #expect(try await FBLPromisesTests.value(of: adopted) == 5)
    }
}
