import Dispatch
import FBLPromises
import TestSupport
import Testing

@Suite("FBL timeout")
struct FBLTimeoutTests {
    @Test("Fulfils with the source's value when the source is fulfilled in time")
    func fulfilsInTime() async throws {
        let source = FBLPromise<Int>.pending()
        let timed = source.timeout(on: .global(), 5)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { source.fulfill(1) }
        #expect(try await value(of: timed) == 1)
    }

    @Test("Rejects with the source's error when the source is rejected in time")
    func rejectsInTime() async throws {
        let source = FBLPromise<Int>.pending()
        let timed = source.timeout(on: .global(), 5)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { source.reject(TestError(2)) }
        let failure = try await error(of: timed)
        #expect(failure as? TestError == TestError(2))
    }

    @Test("An already settled source settles the result")
    func alreadySettledSource() async throws {
        #expect(try await value(of: FBLPromise("done").timeout(on: .global(), 5)) == "done")
        let failure = try await error(of: FBLPromise<String>(TestError(3)).timeout(on: .global(), 5))
        #expect(failure as? TestError == TestError(3))
    }

    @Test("Rejects with timedOut when the source never settles")
    func timesOutWhenTheSourceNeverSettles() async throws {
        let source = FBLPromise<Int>.pending()
        let timed = source.timeout(on: .global(), 0.05)
        let failure = try await error(of: timed)
        #expect(failure as? PromiseError == .timedOut)
        #expect(source.isPending)
    }

    @Test("A source that settles after the timeout changes neither promise's outcome")
    func lateSourceDoesNotChangeTheTimeout() async throws {
        let tagged = TaggedQueue("fbl.timeout.late")
        let source = FBLPromise<Int>.pending()
        let timed = source.timeout(on: tagged.queue, 0.05)
        let failure = try await error(of: timed)
        #expect(failure as? PromiseError == .timedOut)

        // The source is unaffected by the timeout: it can still be fulfilled.
        source.fulfill(4)
        #expect(try await value(of: source) == 4)
        tagged.queue.sync {}  // the timed promise's observer of the source has run
        #expect(timed.error as? PromiseError == .timedOut)
        #expect(timed.fulfilledValue == nil)
    }

    @Test("A rejected source after the timeout keeps its own error")
    func lateRejectionKeepsItsError() async throws {
        let source = FBLPromise<Int>.pending()
        let timed = source.timeout(on: .global(), 0.01)
        #expect(try await error(of: timed) as? PromiseError == .timedOut)
        source.reject(TestError(5))
        #expect(try await error(of: source) as? TestError == TestError(5))
    }

    @Test("A zero interval times out a pending source")
    func zeroIntervalTimesOut() async throws {
        let source = FBLPromise<Int>.pending()
        let failure = try await error(of: source.timeout(on: .global(), 0))
        #expect(failure as? PromiseError == .timedOut)
    }

    @Test(
        "A negative, NaN or infinite interval rejects with invalidArgument",
        arguments: [-1, Double.nan, Double.infinity, -Double.infinity]
    )
    func invalidIntervalRejects(interval: Double) async throws {
        let source = FBLPromise<Int>.pending()
        let timed = source.timeout(on: .global(), interval)
        let failure = try await error(of: timed)
        #expect(Self.isInvalidArgument(failure))
        // The source is untouched.
        #expect(source.isPending)
        source.fulfill(1)
        #expect(try await value(of: source) == 1)
    }

    @Test("An invalid interval rejects even when the source is already fulfilled")
    func invalidIntervalRejectsForSettledSource() async throws {
        let failure = try await error(of: FBLPromise(1).timeout(on: .global(), -0.1))
        #expect(Self.isInvalidArgument(failure))
    }

    @Test("The source is observed on the given queue")
    func observesOnTheGivenQueue() async throws {
        let tagged = TaggedQueue("fbl.timeout.queue")
        let source = FBLPromise<Int>.pending()
        let timed = source.timeout(on: tagged.queue, 5)
        tagged.queue.suspend()
        source.fulfill(1)
        // The source's callback waits on the suspended queue, so nothing can settle the result.
        #expect(timed.isPending)
        await #expect(throws: TimedOut.self) {
            try await outcome(of: timed, timeout: .milliseconds(50))
        }
        tagged.queue.resume()
        let settled = tagged.queue.sync { timed.fulfilledValue }
        #expect(settled == 1)
    }

    @Test("Works with the default queue")
    func defaultQueue() async throws {
        let failure = try await error(of: FBLPromise<Int>.pending().timeout(0.01))
        #expect(failure as? PromiseError == .timedOut)
    }

    private static func isInvalidArgument(_ error: (any Error)?) -> Bool {
        if case .invalidArgument? = error as? PromiseError { return true }
        return false
    }

    @Test("A zero interval never times out a source that has already settled, even on a concurrent queue")
    func zeroIntervalSettledSource() async throws {
        // Before the fix this raced the observer against the timer and rejected ~2% of the time.
        for round in 0..<500 {
            let result = try await value(of: FBLPromise(round).timeout(on: .global(), 0))
            #expect(result == round)
        }
    }

    @Test("A long timer does not keep the timeout's promise alive once the source has settled")
    func timerDoesNotRetainPromise() async throws {
        let source = FBLPromise<Int>.pending()
        var timed: FBLPromise<Int>? = source.timeout(on: .global(), 3600)
        let weakTimed = Weak(timed)
        source.fulfill(1)
        #expect(try await value(of: timed!) == 1)
        timed = nil
        try await eventually("the timeout's promise to be freed") { weakTimed.object == nil }
    }

    @Test("timeout's and reduce's results may be ignored, as in google/promises (@discardableResult)")
    func discardableResults() async throws {
        let source = FBLPromise(1)
        // Each statement would warn (an error in CI's warnings-as-errors build) without the attribute.
        source.timeout(on: .global(), 10)
        source.reduce(on: .global(), [1]) { FBLPromise($0 + $1) }
        #expect(try await value(of: source) == 1)
    }
}
