import Dispatch
import QXPromises
import TestSupport
import Testing

@Suite("QX finally")
struct QXFinallyTests {
    @Test("finally runs after a fulfilment and passes the value on")
    func afterFulfilment() async throws {
        let calls = Recorder<Int>()
        let promise = QXPromise(fulfilledWith: 1).finally(on: .global()) { calls.record(1) }
        #expect(try await value(of: promise) as? Int == 1)
        #expect(calls.count == 1)
    }

    @Test("finally runs after a rejection and passes the error on")
    func afterRejection() async throws {
        let calls = Recorder<Int>()
        let promise = QXPromise(rejectedWith: TestError(2)).finally(on: .global()) { calls.record(1) }
        #expect(try await error(of: promise) as? TestError == TestError(2))
        #expect(calls.count == 1)
    }

    @Test("a throw from finally rejects with the thrown error")
    func throwRejects() async throws {
        let promise = QXPromise(fulfilledWith: 1).finally(on: .global()) { throw TestError(3) }
        #expect(try await error(of: promise) as? TestError == TestError(3))
    }
}
