import Dispatch
import FBLPromises
import TestSupport
import Testing

@Suite("FBL delay")
struct FBLDelayTests {
    @Test("Fulfils with the same value, no earlier than the interval")
    func fulfilsAfterTheInterval() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let delayed = FBLPromise(7).delay(on: .global(), 0.2)
        #expect(try await value(of: delayed) == 7)
        // A tenth of slack for clock granularity; there is deliberately no upper bound.
        #expect(clock.now - start >= .milliseconds(180))
    }

    @Test("Is still pending right after the source is fulfilled")
    func pendingBeforeTheInterval() async throws {
        let delayed = FBLPromise("x").delay(on: .global(), 5)
        // Five seconds cannot have passed since the line above.
        #expect(delayed.isPending)
        // Nor is it fulfilled a tenth of a second later.
        await #expect(throws: TimedOut.self) {
            try await outcome(of: delayed, timeout: .milliseconds(100))
        }
    }

    @Test("The interval counts from the source's fulfilment")
    func countsFromTheFulfilment() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let source = FBLPromise<Int>.pending()
        let delayed = source.delay(on: .global(), 0.1)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { source.fulfill(3) }
        #expect(try await value(of: delayed) == 3)
        // 0.1 s until the fulfilment plus 0.1 s of delay, a tenth of slack.
        #expect(clock.now - start >= .milliseconds(180))
    }

    @Test("A zero interval fulfils with the value")
    func zeroInterval() async throws {
        #expect(try await value(of: FBLPromise(1).delay(on: .global(), 0)) == 1)
    }

    @Test("A rejection passes through without the delay")
    func rejectionIsNotDelayed() async throws {
        let delayed = FBLPromise<Int>(TestError(1)).delay(on: .global(), 600)
        // Waiting at most defaultTestTimeout (slack for a loaded machine or a sanitizer, still far
        // below 600 s): a rejection delayed by 600 would time out.
        let failure = try await error(of: delayed, timeout: defaultTestTimeout)
        #expect(failure as? TestError == TestError(1))
    }

    @Test("A later rejection of the source passes through without the delay")
    func laterRejectionIsNotDelayed() async throws {
        let source = FBLPromise<Int>.pending()
        let delayed = source.delay(on: .global(), 600)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { source.reject(TestError(2)) }
        let failure = try await error(of: delayed, timeout: defaultTestTimeout)
        #expect(failure as? TestError == TestError(2))
    }

    @Test(
        "A negative, NaN or infinite interval rejects with invalidArgument",
        arguments: [-0.1, Double.nan, Double.infinity, -Double.infinity]
    )
    func invalidIntervalRejects(interval: Double) async throws {
        let failure = try await error(of: FBLPromise(1).delay(on: .global(), interval))
        #expect(Self.isInvalidArgument(failure))
    }

    @Test("Works with the default queue")
    func defaultQueue() async throws {
        #expect(try await value(of: FBLPromise(9).delay(0.01)) == 9)
    }

    private static func isInvalidArgument(_ error: (any Error)?) -> Bool {
        if case .invalidArgument? = error as? PromiseError { return true }
        return false
    }
}
