import FBLPromises
import Foundation
import PromiseRuntime
import TestSupport
import Testing

/// The example the README's leak-check command runs:
/// `PROMISE_LEAK_CHECK=1 swift test --filter LeakCheckExampleTests` prints exactly one report,
/// for the one promise below, with the stack where it was made.
///
/// Without the environment variable the same test binds a scoped reporter and checks the report
/// itself, so the example is also a test of the check.
@Suite("Reliability: the leak-check example")
struct LeakCheckExampleTests {
    @Test(
        "a request promise dropped before it settled is reported once, with where it was made",
        .enabled(if: PendingPromiseLeakCheck.isCompiledIn))
    func droppedRequest() async throws {
        let printedByTheEnvironment = ProcessInfo.processInfo.environment["PROMISE_LEAK_CHECK"] == "1"
        let leaks = Recorder<PendingPromiseLeak>()
        let scopedReporter: PendingPromiseLeakCheck.Reporter? =
            printedByTheEnvironment ? nil : { @Sendable leak in leaks.record(leak) }
        let freed = PendingPromiseLeakCheck.$reporter.withValue(scopedReporter) {
            #expect(PendingPromiseLeakCheck.track() != nil, "the check is on")
            // A request whose completion handler was lost: nothing can settle it any more.
            var request: FBLPromise<String>? = .pending()
            let freed = Weak(request!)
            request = nil
            return freed
        }
        try await eventually("the dropped promise to be freed") { freed.object == nil }
        if !printedByTheEnvironment {
            try await eventually("the dropped promise to be reported") { leaks.all.count == 1 }
            #expect(leaks.all.first?.promiseType == "FBLPromise<String>")
            let report = try #require(leaks.all.first)
            // Symbolicating reads the test bundle's debug information, for seconds: off the
            // cooperative pool, whose threads (two on CI) the other tests need meanwhile.
            let description = try await offPool("symbolicating the creation stack") { report.description }
            #expect(description.contains("LeakCheckExampleTests"))
        }
    }
}
