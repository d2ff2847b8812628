import DesignRegistry
import PromiseInterface
import TestSupport
import Testing

/// Lifetimes on the shared protocol, for every registered design: a settled chain the caller lets
/// go of is freed, and so is a pending one that nothing can settle any more.
@Suite("Reliability: memory, every design", .serialized)
struct MemoryTests {
    static let links = 1_000

    @Test("every promise of a settled chain is freed once the caller lets go", arguments: Design.allCases)
    func settledChainFreed(design: Design) async throws {
        try await Self.settledChainFreed(design.promiseType)
    }

    @Test("a pending chain whose resolver the caller dropped is freed", arguments: Design.allCases)
    func droppedPendingChainFreed(design: Design) async throws {
        try await Self.droppedPendingChainFreed(design.promiseType)
    }

    @Test(
        "a promise adopting a thenable that never calls back stays pending, and is freed when dropped",
        arguments: Design.allCases)
    func silentThenable(design: Design) async throws {
        try await Self.silentThenable(design.promiseType)
    }

    static func settledChainFreed<P: APlusPromise>(_: P.Type) async throws {
        let links = links
        let weak = Recorder<Weak<P>>()
        var head: Deferred<P>? = P.deferred()
        weak.record(Weak(head!.promise))
        var tail: P? = head!.promise.chained(
            links, onFulfilled: { ($0 as! Int) + 1 }, eachLink: { weak.record(Weak($0)) })
        head!.resolve(0)
        #expect(try await tail!.settledOutcome() == .fulfilled(links))
        head = nil
        tail = nil
        try await eventually("every link to be freed") { weak.all.allSatisfy { $0.object == nil } }
    }

    static func droppedPendingChainFreed<P: APlusPromise>(_: P.Type) async throws {
        let weak = Recorder<Weak<P>>()
        do {
            let head = P.deferred()
            weak.record(Weak(head.promise))
            let tail = head.promise.chained(links, eachLink: { weak.record(Weak($0)) })
            // Let the designs that attach lazily (QN starts each link in a main-queue hop) attach.
            try await drainMainQueue()
            try await drainMainQueue()
            withExtendedLifetime((head, tail)) {}
        }
        try await eventually("every link to be freed") { weak.all.allSatisfy { $0.object == nil } }
    }

    static func silentThenable<P: APlusPromise>(_: P.Type) async throws {
        var deferred: Deferred<P>? = P.deferred()
        let silent = ScriptThenable { _, _ in }
        deferred!.resolve(silent)
        let weak = Weak(deferred!.promise)
        try await eventually("the thenable to be asked") { silent.calls == 1 }
        try await drainMainQueue()
        #expect(deferred!.promise.currentState.isPending)
        deferred = nil
        try await eventually("the pending promise to be freed") { weak.object == nil }
    }
}
