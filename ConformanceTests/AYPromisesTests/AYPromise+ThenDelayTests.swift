import AYPromises
import Dispatch
import TestSupport
import Testing

@Suite("AY thenDelay")
struct AYThenDelayTests {
    @Test("thenDelay runs its block on the main queue, no earlier than the delay after fulfilment")
    func delayed() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let seen = Recorder<String>()
        let promise = AYPromise.resolve(1).thenDelay(0.05) { value in
            seen.record("\(value!) main:\(MainQueue.isCurrent)")
            return clock.now - start
        }
        let elapsed = try #require(try await value(of: promise) as? Duration)
        #expect(elapsed >= .milliseconds(50))
        #expect(seen.all == ["1 main:true"])
    }

    @Test("a rejection skips the block and passes on")
    func rejectionPasses() async throws {
        let called = Recorder<Void>()
        let promise = AYPromise.resolve(TestError(1)).thenDelay(0.01) { called.record(()) }
        #expect(try await error(of: promise) as? TestError == TestError(1))
        #expect(called.count == 0)
    }

    @Test("a negative, NaN or infinite delay rejects with invalidArgument without running the block")
    func invalidDelay() async throws {
        let called = Recorder<Void>()
        for seconds in [-1, Double.nan, Double.infinity] {
            let promise = AYPromise.resolve(1).thenDelay(seconds) { called.record(()) }
            guard case .invalidArgument = try await error(of: promise) as? AYPromiseError else {
                Issue.record("expected invalidArgument for \(seconds)")
                continue
            }
        }
        #expect(called.count == 0)
    }
}
