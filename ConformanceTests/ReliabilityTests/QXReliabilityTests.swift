import DesignRegistry
import Dispatch
import Foundation
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
        let values = try #require(try await QXAdapter.settledValue(combined) as? [PromiseValue])
        #expect(values.map { $0 as? Int } == Array(0..<Self.width))
    }

    #if os(Linux)
        @Test(
            "an all over 1,000,000 inputs keeps nothing once everything is dropped",
            .disabled(if: Sanitizer.isActive, "a sanitizer's allocator keeps freed memory in quarantine"))
        func hugeAllKeepsNothing() async {
            // In a process of its own (an exit test), so that no other test's memory moves the
            // figures. glibc keeps freed memory for reuse (the resident size stays hundreds of MiB
            // up for FBL's `all` as for QX's); `malloc_trim` hands back what is free, so what is
            // left above the baseline after it is what is still in use.
            let run = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                let inputs = 1_000_000
                let queue = DispatchQueue(label: "qx.huge-all")
                QXReliabilityTests.runAll(over: 1_000, on: queue)  // the runtime's caches, before the baseline
                let before = residentBytes()
                QXReliabilityTests.runAll(over: inputs, on: queue)
                let kept = residentBytes()
                _ = mallocTrim(0)
                let inUse = residentBytes()
                print(
                    "QX all over \(inputs) inputs: \((kept - before) >> 20) MiB above the baseline, \((inUse - before) >> 20) MiB after malloc_trim"
                )
                if inUse - before > 16 << 20 { exit(1) }
            }
            if let run { print(String(decoding: run.standardOutputContent, as: UTF8.self), terminator: "") }
        }

        /// Runs one `all` over `count` pending inputs, fulfils them, waits for the result and drops
        /// everything.
        static func runAll(over count: Int, on queue: DispatchQueue) {
            let done = DispatchSemaphore(value: 0)
            do {
                let inputs = (0..<count).map { _ in QXPromise.pending(on: queue) }
                QXPromise.all(on: queue, inputs.map(\.promise)).then(on: queue) { _ in
                    done.signal()
                    return nil
                }
                for (index, input) in inputs.enumerated() { input.resolver.fulfill(index) }
            }
            if done.wait(timeout: .now() + defaultTestTimeout.timeInterval) == .timedOut { exit(2) }
            // The last callbacks return after the signal: one more hop lets them finish.
            queue.sync {}
        }
    #endif

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

#if os(Linux)
    /// The process's resident set size (Linux's `/proc/self/statm`, in pages).
    private func residentBytes() -> Int {
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// glibc's `malloc_trim` (declared in `malloc.h`, which Glibc's module map leaves out): hands
    /// free heap pages back to the system.
    @_silgen_name("malloc_trim") private func mallocTrim(_ pad: Int) -> Int32
#endif
