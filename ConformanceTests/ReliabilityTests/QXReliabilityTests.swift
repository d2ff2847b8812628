import Dispatch
import QXPromises
import TestSupport
import Testing

/// QX only: all whose inputs settle from many threads, and keepAlive letting go once settled.
@Suite("Reliability: QX under stress", .serialized)
struct QXReliabilityTests {
    static let width = stressSize(100_000)

    @Test("a 100,000-way all whose inputs are fulfilled from many threads has every value in order")
    func wideAll() async throws {
        let queue = DispatchQueue(label: "qx.all", attributes: .concurrent)
        let inputs = (0..<Self.width).map { _ in QXPromise.pending(on: queue) }
        let combined = QXPromise.all(on: queue, inputs.map(\.0))
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: inputs.count) { index in inputs[index].1.fulfill(index) }
        }
        let values = try #require(try await combined.settledValue() as? [PromiseValue])
        #expect(values.map { $0 as? Int } == Array(0..<Self.width))
    }

    @Test("pending promises kept alive on purpose (keepAlive) are all let go once settled from many threads")
    func keepAliveLetsGo() async throws {
        let count = stressSize(10_000)
        let queue = DispatchQueue(label: "qx.keepalive", attributes: .concurrent)
        let resolvers = Recorder<QXResolver>()
        let weak = Recorder<Weak<QXPromise>>()
        for _ in 0..<count {
            let (promise, resolver) = QXPromise.pending(on: queue)
            let link = promise.then(on: queue) { $0 }
            weak.record(Weak(promise))
            weak.record(Weak(link))
            resolvers.record(resolver)
        }
        // Nobody holds the promises, yet they are alive: their resolvers can still settle them.
        #expect(weak.all.allSatisfy { $0.object != nil })
        let all = resolvers.all
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: all.count) { index in all[index].fulfill(index) }
        }
        try await eventually("every settled promise to be let go", timeout: heavyTimeout) {
            weak.all.allSatisfy { $0.object == nil }
        }
    }
}
