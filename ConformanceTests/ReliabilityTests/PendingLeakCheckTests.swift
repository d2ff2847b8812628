import APlusSuite
import DesignRegistry
import Foundation
import PromiseRuntime
import TestSupport
import Testing

/// The debug-only check that reports a promise given up while pending (`PendingPromiseLeakCheck`),
/// for every registered design, through the shared protocol.
@Suite("Reliability: pending-promise leak check, every design")
struct PendingLeakCheckTests {
    static let links = 10

    @Test(
        "a dropped pending promise is reported once, with its type and where it was made",
        .enabled(if: PendingPromiseLeakCheck.isCompiledIn), arguments: Design.allCases)
    func droppedPendingReported(design: Design) async throws {
        try await Self.droppedPendingReported(design.adapter)
    }

    @Test(
        "every link of a dropped pending chain is reported once", .enabled(if: PendingPromiseLeakCheck.isCompiledIn),
        arguments: Design.allCases)
    func droppedChainReported(design: Design) async throws {
        try await Self.droppedChainReported(design.adapter)
    }

    @Test(
        "a promise that settled is not reported when freed", .enabled(if: PendingPromiseLeakCheck.isCompiledIn),
        arguments: Design.allCases)
    func settledNotReported(design: Design) async throws {
        try await Self.settledNotReported(design.adapter)
    }

    @Test(
        "outside a reporter's scope nothing is tracked",
        .enabled(if: ProcessInfo.processInfo.environment["PROMISE_LEAK_CHECK"] == nil))
    func offByDefault() {
        #expect(PendingPromiseLeakCheck.track() == nil)
        let leaks = Recorder<PendingPromiseLeak>()
        PendingPromiseLeakCheck.$reporter.withValue({ leaks.record($0) }) {
            #expect(PendingPromiseLeakCheck.track() != nil)
        }
    }

    static func droppedPendingReported<A: APlusAdapter>(_: A.Type) async throws {
        let leaks = Recorder<PendingPromiseLeak>()
        var deferred: APlusDeferred<A.PromiseUnderTest>? = PendingPromiseLeakCheck.$reporter.withValue({
            leaks.record($0)
        }) { A.deferred() }
        let promiseID = A.identity(of: deferred!.promise)
        let typeName = String(describing: type(of: A.storage(of: deferred!.promise)))
        let weak = A.weakReference(to: deferred!.promise)
        // QN starts its deferred's resolver task in a main-queue hop: let it start first.
        try await drainMainQueue()
        #expect(leaks.all.isEmpty, "reported while still held: \(leaks.all)")
        deferred = nil
        try await eventually("the dropped promise to be reported") { leaks.all.contains { $0.promiseID == promiseID } }
        try await eventually("the dropped promise to be freed") { weak.object == nil }
        let reports = leaks.all.filter { $0.promiseID == promiseID }
        #expect(reports.count == 1)
        #expect(reports.first?.promiseType == typeName)
        let report = try #require(reports.first)
        // Symbolicating reads the test bundle's debug information, for seconds: off the
        // cooperative pool, whose threads (two on CI) the other tests need meanwhile.
        let description = try await offPool("symbolicating the creation stack") { report.description }
        #expect(description.contains("was made at:\n    "), "no creation stack: \(description)")
        #expect(description.contains(typeName))
    }

    static func droppedChainReported<A: APlusAdapter>(_: A.Type) async throws {
        let leaks = Recorder<PendingPromiseLeak>()
        let ids: [ObjectIdentifier]
        do {
            let (head, madeIDs) = PendingPromiseLeakCheck.$reporter.withValue({ leaks.record($0) }) {
                let head = A.deferred()
                var ids = [A.identity(of: head.promise)]
                _ = A.chained(head.promise, links, eachLink: { ids.append(A.identity(of: $0)) })
                return (head, ids)
            }
            ids = madeIDs
            // Let the designs that attach lazily (QN starts each link in a main-queue hop) attach.
            try await drainMainQueue()
            try await drainMainQueue()
            #expect(leaks.all.isEmpty, "reported while still held: \(leaks.all)")
            withExtendedLifetime(head) {}
        }
        // Internal helpers (QN's resolver task) may report too; each promise the test made must
        // be reported exactly once.
        try await eventually("every link to be reported") {
            Set(leaks.all.map(\.promiseID)).isSuperset(of: ids)
        }
        try await drainMainQueue()
        for id in ids {
            #expect(leaks.all.count { $0.promiseID == id } == 1)
        }
    }

    static func settledNotReported<A: APlusAdapter>(_: A.Type) async throws {
        let leaks = Recorder<PendingPromiseLeak>()
        var deferred: APlusDeferred<A.PromiseUnderTest>? = PendingPromiseLeakCheck.$reporter.withValue({
            leaks.record($0)
        }) { A.deferred() }
        let weak = A.weakReference(to: deferred!.promise)
        deferred!.resolve(1)
        #expect(try await A.settledOutcome(deferred!.promise) == .fulfilled(1))
        deferred = nil
        try await eventually("the settled promise to be freed") { weak.object == nil }
        try await drainMainQueue()
        #expect(leaks.all.isEmpty, "\(leaks.all)")
    }
}
