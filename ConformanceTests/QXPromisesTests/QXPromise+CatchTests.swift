import Dispatch
import QXPromises
import TestSupport
import Testing

@Suite("QX catch")
struct QXCatchTests {
    @Test("the catch block decides: its value fulfils the next promise (not nil, as in the article)")
    func catchDecidesValue() async throws {
        let caught = QXPromise(rejectedWith: TestError(1)).catch(on: .global()) { error in
            "recovered from \((error as! TestError).code)"
        }
        #expect(try await value(of: caught) as? String == "recovered from 1")
    }

    @Test("a throw from the catch block rejects; the fulfil path is not taken afterwards")
    func catchThrows() async throws {
        let calls = Recorder<String>()
        let caught = QXPromise(rejectedWith: TestError(1)).catch(on: .global()) { _ in
            calls.record("catch")
            throw TestError(2)
        }
        let after = caught.then(on: .global()) { value in
            calls.record("then")
            return value
        }
        #expect(try await error(of: after) as? TestError == TestError(2))
        #expect(calls.all == ["catch"])
    }

    @Test("a promise returned from the catch block is observed in turn")
    func catchReturnsPromise() async throws {
        let caught = QXPromise(rejectedWith: TestError()).catch(on: .global()) { _ in QXPromise(fulfilledWith: 3) }
        #expect(try await value(of: caught) as? Int == 3)
    }

    @Test("a fulfilment passes through without calling the catch block")
    func fulfilmentPassesThrough() async throws {
        let calls = Recorder<Int>()
        let caught = QXPromise(fulfilledWith: 4).catch(on: .global()) { _ in
            calls.record(1)
            return nil
        }
        #expect(try await value(of: caught) as? Int == 4)
        #expect(calls.count == 0)
    }

    @Test("one catch at the end handles a rejection from any step, skipping the steps after it")
    func oneHandlerForEveryStep() async throws {
        let calls = Recorder<String>()
        let result = QXPromise(fulfilledWith: 1)
            .then(on: .global()) { _ in throw TestError(5) }
            .then(on: .global()) { value in
                calls.record("skipped step ran")
                return value
            }
            .catch(on: .global()) { error in
                calls.record("catch \((error as! TestError).code)")
                return "done"
            }
        #expect(try await value(of: result) as? String == "done")
        #expect(calls.all == ["catch 5"])
    }
}
