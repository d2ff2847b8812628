import Dispatch
import PromiseInterface
import TestSupport
import Testing

/// `releaseOnFreshStack` is how every design frees a dropped pending chain one link per hop. Its
/// contract: the caller keeps no reference, so the value is freed by the queue's block even while
/// the caller is still running. A caller that captured a copy instead kept its own reference
/// until the end of its scope, and when the block ran first, that last release freed the whole
/// chain on the caller's stack (a dropped 100,000-link QX chain crashed about one run in seven).
@Suite("Reliability: freeing on a fresh stack")
struct ReleaseOnFreshStackTests {
    /// Signals when it is freed.
    final class FreedSignal: Sendable {
        let freed: DispatchSemaphore
        init(_ freed: DispatchSemaphore) { self.freed = freed }
        deinit { freed.signal() }
    }

    @Test("the value is freed while the caller still runs: the caller kept no reference")
    func callerKeepsNoReference() async throws {
        let freedWhileCallerRan = try await offPool("the caller") {
            let freed = DispatchSemaphore(value: 0)
            let chain = [FreedSignal(freed)]
            releaseOnFreshStack(consume chain)
            // Still inside the caller: with a reference of its own left, nothing could free it
            // before this closure returns, and the wait would time out.
            return freed.wait(timeout: .now() + defaultTestTimeout.timeInterval) == .success
        }
        #expect(freedWhileCallerRan)
    }
}
