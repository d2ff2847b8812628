import PromiseRuntime
import Synchronization
import TestSupport
import Testing

/// `releaseIteratively` is how every design frees a dropped pending chain: each link's `deinit`
/// hands the next link over, and the outermost call frees them one after another instead of one
/// inside the other.
@Suite("Reliability: freeing without nesting")
struct IterativeReleaseTests {
    /// Counts frees and the deepest nesting of `deinit`s seen.
    final class Census: Sendable {
        let freed = Atomic<Int>(0)
        let depth = Atomic<Int>(0)
        let deepest = Atomic<Int>(0)
    }

    /// One link of a chain: it holds the next and, when freed, takes it out and hands the only
    /// reference to `releaseIteratively`, as a pending promise's deinit does with its observers.
    final class Link: Sendable {
        /// Guards the next link (a mutex only so that `deinit` can take it out).
        let next: PromiseMutex<Link?>
        let census: Census

        init(next: Link?, census: Census) {
            self.next = PromiseMutex(next)
            self.census = census
        }

        deinit {
            let depth = census.depth.add(1, ordering: .relaxed).newValue
            census.deepest.max(depth, ordering: .relaxed)
            census.freed.add(1, ordering: .relaxed)
            let next = self.next.withLock { next in
                defer { next = nil }
                return next
            }
            // Freed here, the next link's deinit would run inside this one, and so on.
            if let next { releaseIteratively(consume next) }
            census.depth.subtract(1, ordering: .relaxed)
        }
    }

    @Test("the value is freed before the call returns, so the caller kept no reference")
    func freedAtOnce() {
        let census = Census()
        let chain = Link(next: nil, census: census)
        releaseIteratively(consume chain)
        #expect(census.freed.load(ordering: .relaxed) == 1)
    }

    @Test("a 100,000-link chain handed over link by link is freed completely, one deinit deep")
    func longChainFreedFlat() async throws {
        let links = stressSize(100_000)
        let census = Census()
        // On a thread of its own (a dispatch queue's 512 KiB stack): 100,000 nested deinits
        // would overflow it, so a crash here is the regression.
        try await offPool("freeing the chain") {
            var head: Link? = nil
            for _ in 0..<links { head = Link(next: head, census: census) }
            releaseIteratively(consume head)
        }
        #expect(census.freed.load(ordering: .relaxed) == links)
        // Every link is freed by the loop, none from inside another link's deinit.
        #expect(census.deepest.load(ordering: .relaxed) == 1)
    }
}
