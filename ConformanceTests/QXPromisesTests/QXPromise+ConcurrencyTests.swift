import Dispatch
import QXPromises
import TestSupport
import Testing

@Suite("QX async/await")
struct QXConcurrencyTests {
    @Test("await value returns the value of a promise fulfilled later, on another thread")
    func awaitsValue() async throws {
        let promise = QXPromise(on: .global()) { fulfill, _ in
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) { fulfill("later") }
        }
        #expect(try await promise.value as? String == "later")
    }

    @Test("await value throws the error of a rejected promise")
    func awaitsError() async throws {
        await #expect(throws: TestError(1)) { try await QXPromise(rejectedWith: TestError(1)).value }
    }

    @Test("a QX promise can be awaited from many tasks at once")
    func manyAwaiters() async throws {
        let (promise, resolver) = QXPromise.pending(on: .global())
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 { group.addTask { try await promise.value as! Int } }
            resolver.fulfill(3)
            for try await value in group { #expect(value == 3) }
        }
    }
}
