import APlusSuite
import DesignRegistry
import TestSupport
import Testing

/// Lifetimes on the shared protocol, for every registered design: a settled chain the caller lets
/// go of is freed, and so is a pending one that nothing can settle any more.
@Suite("Reliability: memory, every design", .serialized)
struct MemoryTests {
    static let links = 1_000

    @Test("every promise of a settled chain is freed once the caller lets go", arguments: Design.allCases)
    func settledChainFreed(design: Design) async throws {
        try await Self.settledChainFreed(design.adapter)
    }

    @Test("a pending chain whose resolver the caller dropped is freed", arguments: Design.allCases)
    func droppedPendingChainFreed(design: Design) async throws {
        try await Self.droppedPendingChainFreed(design.adapter)
    }

    @Test(
        "a promise adopting a thenable that never calls back stays pending, and is freed when dropped",
        arguments: Design.allCases)
    func silentThenable(design: Design) async throws {
        try await Self.silentThenable(design.adapter)
    }

    @Test(
        "a promise kept by an object that its own callback captures is freed once the callback has run",
        arguments: Design.allCases)
    func callbackFreedOnceRun(design: Design) async throws {
        try await Self.callbackFreedOnceRun(design.adapter)
    }

    static func settledChainFreed<A: APlusAdapter>(_: A.Type) async throws {
        let links = links
        let weak = Recorder<Weak<AnyObject>>()
        var head: APlusDeferred<A.PromiseUnderTest>? = A.deferred()
        weak.record(A.weakReference(to: head!.promise))
        var tail: A.PromiseUnderTest? = A.chained(
            head!.promise, links, onFulfilled: { ($0 as! Int) + 1 }, eachLink: { weak.record(A.weakReference(to: $0)) })
        head!.resolve(0)
        #expect(try await A.settledOutcome(tail!) == .fulfilled(links))
        head = nil
        tail = nil
        try await eventually("every link to be freed") { weak.all.allSatisfy { $0.object == nil } }
    }

    static func droppedPendingChainFreed<A: APlusAdapter>(_: A.Type) async throws {
        let weak = Recorder<Weak<AnyObject>>()
        do {
            let head = A.deferred()
            weak.record(A.weakReference(to: head.promise))
            let tail = A.chained(head.promise, links, eachLink: { weak.record(A.weakReference(to: $0)) })
            // Let the designs that attach lazily (QN starts each link in a main-queue hop) attach.
            try await drainMainQueue()
            try await drainMainQueue()
            withExtendedLifetime((head, tail)) {}
        }
        try await eventually("every link to be freed") { weak.all.allSatisfy { $0.object == nil } }
    }

    static func silentThenable<A: APlusAdapter>(_: A.Type) async throws {
        var deferred: APlusDeferred<A.PromiseUnderTest>? = A.deferred()
        let silent = ScriptThenable { _, _ in }
        deferred!.resolve(silent)
        let weak = A.weakReference(to: deferred!.promise)
        try await eventually("the thenable to be asked") { silent.calls == 1 }
        try await drainMainQueue()
        #expect(A.currentState(of: deferred!.promise).isPending)
        deferred = nil
        try await eventually("the pending promise to be freed") { weak.object == nil }
    }

    /// The promise `then` returns is kept by `keeper`, which its own callback captures: a design
    /// that kept the callback once it had run would hold a cycle (promise, callback, keeper,
    /// promise) and never free the promise.
    static func callbackFreedOnceRun<A: APlusAdapter>(_: A.Type) async throws {
        let weak: Weak<AnyObject>
        do {
            let keeper = Recorder<A.PromiseUnderTest>()
            let head = A.deferred()
            let chained = A.then(
                head.promise,
                onFulfilled: { value in
                    _ = keeper.all
                    return value
                }, onRejected: nil)
            keeper.record(chained)
            weak = A.weakReference(to: chained)
            head.resolve(1)
            #expect(try await A.settledOutcome(chained) == .fulfilled(1))
        }
        try await eventually("the promise its own callback's capture keeps to be freed") { weak.object == nil }
    }
}
