import Dispatch
import QXPromises
import TestSupport
import Testing

@Suite("QX all")
struct QXAllTests {
    @Test("all of nothing fulfils with an empty array")
    func empty() async throws {
        let promise = QXPromise.all(on: .global(), [])
        #expect((try await value(of: promise) as? [PromiseValue])?.isEmpty == true)
    }

    @Test("all fulfils with every value in input order, whatever order they settle in")
    func valuesInOrder() async throws {
        let pending = (0..<3).map { _ in QXPromise.pending(on: .global()) }
        let promise = QXPromise.all(on: .global(), pending.map(\.promise) + [QXPromise(fulfilledWith: 3)])
        for index in [2, 0, 1] { pending[index].resolver.fulfill(index) }
        let values = try await value(of: promise) as? [PromiseValue]
        #expect(values?.map { $0 as? Int } == [0, 1, 2, 3])
    }

    @Test("all rejects with the first error without waiting for the rest")
    func firstError() async throws {
        let (never, _) = QXPromise.pending(on: .global())
        let (failing, resolver) = QXPromise.pending(on: .global())
        let promise = QXPromise.all(on: .global(), [never, failing])
        resolver.reject(TestError(1))
        #expect(try await error(of: promise) as? TestError == TestError(1))
    }

    @Test("all of many promises settled from many threads gathers every value")
    func manyConcurrent() async throws {
        let count = 1_000
        let pending = (0..<count).map { _ in QXPromise.pending(on: .global()) }
        let promise = QXPromise.all(on: .global(), pending.map(\.promise))
        DispatchQueue.concurrentPerform(iterations: count) { index in pending[index].resolver.fulfill(index) }
        let values = try await value(of: promise) as? [PromiseValue]
        #expect(values?.map { $0 as? Int } == Array(0..<count))
    }

    @Test("all nested 100,000 deep settles when the innermost input rejects, without overflowing the stack")
    func deeplyNested() async throws {
        let (innermost, resolver) = QXPromise.pending(on: .global())
        let depth = stressSize(100_000)
        let combined = try await offPool("nesting the alls") {
            var combined = innermost
            for level in 0..<depth {
                combined = QXPromise.all(on: .global(), [combined, QXPromise(fulfilledWith: level)])
            }
            return combined
        }
        resolver.reject(TestError(7))
        #expect(try await error(of: combined) as? TestError == TestError(7))
    }

    @Test("after the first rejection, all keeps none of the values gathered and ignores later inputs")
    func releasesValuesAfterRejection() async throws {
        let (slow, slowResolver) = QXPromise.pending(on: .global())
        let (failing, failingResolver) = QXPromise.pending(on: .global())
        let (promise, gathered) = Self.allOfAnObject(and: [failing, slow])
        failingResolver.reject(TestError(2))
        #expect(try await error(of: promise) as? TestError == TestError(2))
        // `slow` is still pending and observed by the `all`: the value gathered before the
        // rejection must not be kept for it.
        try await eventually("the gathered value to be freed") { gathered.object == nil }
        slowResolver.fulfill(CapturedObject())
        #expect(try await error(of: promise) as? TestError == TestError(2))
    }

    /// `all` of a promise fulfilled with an object, then `others`; holds neither the object nor
    /// its promise (only the `all` gathers it).
    private static func allOfAnObject(and others: [QXPromise]) -> (QXPromise, Weak<CapturedObject>) {
        let object = CapturedObject()
        let (promise, resolver) = QXPromise.pending(on: .global())
        resolver.fulfill(object)
        return (QXPromise.all(on: .global(), [promise] + others), Weak(object))
    }
}
