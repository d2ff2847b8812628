import Dispatch
import FBLPromises
import Synchronization
import TestSupport
import Testing

@Suite("FBL retry")
struct FBLRetryTests {
    @Test("Fulfils when a later attempt succeeds")
    func succeedsOnALaterAttempt() async throws {
        let calls = Atomic<Int>(0)
        let promise = retry(on: .global(), attempts: 3, delay: 0.01) { () -> FBLPromise<String> in
            let call = calls.add(1, ordering: .sequentiallyConsistent).newValue
            return call < 3 ? FBLPromise(TestError(call)) : FBLPromise("third time")
        }
        #expect(try await value(of: promise) == "third time")
        #expect(calls.load(ordering: .sequentiallyConsistent) == 3)
    }

    @Test("Fulfils at once without retrying when the first attempt succeeds")
    func firstAttemptSucceeds() async throws {
        let calls = Atomic<Int>(0)
        let promise = retry(on: .global(), attempts: 5, delay: 0.01) { () -> FBLPromise<Int> in
            calls.add(1, ordering: .sequentiallyConsistent)
            return FBLPromise(1)
        }
        #expect(try await value(of: promise) == 1)
        #expect(calls.load(ordering: .sequentiallyConsistent) == 1)
    }

    @Test("Gives up after the given number of retries and rejects with the last error")
    func givesUpAfterTheRetries() async throws {
        let calls = Atomic<Int>(0)
        let promise = retry(on: .global(), attempts: 2, delay: 0.01) { () -> FBLPromise<Int> in
            let call = calls.add(1, ordering: .sequentiallyConsistent).newValue
            return FBLPromise(TestError(call))
        }
        let failure = try await error(of: promise)
        #expect(failure as? TestError == TestError(3))
        #expect(calls.load(ordering: .sequentiallyConsistent) == 3)
    }

    @Test("Zero attempts runs the work once and rejects with its error")
    func zeroAttemptsRunsOnce() async throws {
        let calls = Atomic<Int>(0)
        let promise = retry(on: .global(), attempts: 0, delay: 0.01) { () -> FBLPromise<Int> in
            calls.add(1, ordering: .sequentiallyConsistent)
            return FBLPromise(TestError(1))
        }
        #expect(try await error(of: promise) as? TestError == TestError(1))
        #expect(calls.load(ordering: .sequentiallyConsistent) == 1)
    }

    @Test("Waits for a pending attempt before deciding")
    func waitsForPendingAttempts() async throws {
        let calls = Atomic<Int>(0)
        let promise = retry(on: .global(), attempts: 1, delay: 0.01) { () -> FBLPromise<Int> in
            let call = calls.add(1, ordering: .sequentiallyConsistent).newValue
            let attempt = FBLPromise<Int>.pending()
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
                if call == 1 { attempt.reject(TestError(1)) } else { attempt.fulfill(call) }
            }
            return attempt
        }
        #expect(try await value(of: promise) == 2)
    }

    @Test("The condition receives the remaining attempts and the error, and can stop retrying")
    func conditionSeesRemainingAttemptsAndError() async throws {
        let calls = Atomic<Int>(0)
        let asked = Recorder<[Int]>()
        let promise = retry(
            on: .global(),
            attempts: 5,
            delay: 0.01,
            condition: { remaining, error in
                asked.record([remaining, (error as? TestError)?.code ?? -1])
                return remaining > 3
            },
            { () -> FBLPromise<Int> in
                let call = calls.add(1, ordering: .sequentiallyConsistent).newValue
                return FBLPromise(TestError(call))
            }
        )
        let failure = try await error(of: promise)
        #expect(failure as? TestError == TestError(3))
        #expect(calls.load(ordering: .sequentiallyConsistent) == 3)
        #expect(asked.all == [[5, 1], [4, 2], [3, 3]])
    }

    @Test("A condition that refuses at once leaves a single attempt")
    func conditionRefusingAtOnce() async throws {
        let calls = Atomic<Int>(0)
        let promise = retry(
            on: .global(),
            attempts: 3,
            delay: 0.01,
            condition: { _, _ in false },
            { () -> FBLPromise<Int> in
                calls.add(1, ordering: .sequentiallyConsistent)
                return FBLPromise(TestError(4))
            }
        )
        #expect(try await error(of: promise) as? TestError == TestError(4))
        #expect(calls.load(ordering: .sequentiallyConsistent) == 1)
    }

    @Test("The condition is not asked once no attempts remain")
    func conditionNotAskedWithoutRemainingAttempts() async throws {
        let asked = Recorder<Int>()
        let promise = retry(
            on: .global(),
            attempts: 1,
            delay: 0.01,
            condition: { remaining, _ in
                asked.record(remaining)
                return true
            },
            { () -> FBLPromise<Int> in FBLPromise(TestError(1)) }
        )
        #expect(try await error(of: promise) as? TestError == TestError(1))
        #expect(asked.all == [1])
    }

    @Test("Work that throws is retried like a rejection")
    func throwingWorkIsRetried() async throws {
        let calls = Atomic<Int>(0)
        let promise = retry(on: .global(), attempts: 2, delay: 0.01) { () throws -> FBLPromise<Int> in
            let call = calls.add(1, ordering: .sequentiallyConsistent).newValue
            if call < 3 { throw TestError(call) }
            return FBLPromise(call)
        }
        #expect(try await value(of: promise) == 3)
        #expect(calls.load(ordering: .sequentiallyConsistent) == 3)
    }

    @Test("Work that always throws rejects with the last thrown error")
    func alwaysThrowingWorkRejects() async throws {
        let calls = Atomic<Int>(0)
        let promise = retry(on: .global(), attempts: 1, delay: 0.01) { () throws -> FBLPromise<Int> in
            let call = calls.add(1, ordering: .sequentiallyConsistent).newValue
            throw TestError(call)
        }
        #expect(try await error(of: promise) as? TestError == TestError(2))
        #expect(calls.load(ordering: .sequentiallyConsistent) == 2)
    }

    @Test("Negative attempts reject with invalidArgument without running the work")
    func negativeAttemptsRejectWithoutWork() async throws {
        let calls = Atomic<Int>(0)
        let promise = retry(on: .global(), attempts: -1, delay: 0.01) { () -> FBLPromise<Int> in
            calls.add(1, ordering: .sequentiallyConsistent)
            return FBLPromise(1)
        }
        let failure = try await error(of: promise)
        #expect(Self.isInvalidArgument(failure))
        #expect(calls.load(ordering: .sequentiallyConsistent) == 0)
    }

    @Test(
        "A negative, NaN or infinite delay rejects with invalidArgument without running the work",
        arguments: [-0.5, Double.nan, Double.infinity, -Double.infinity]
    )
    func invalidDelayRejectsWithoutWork(delay: Double) async throws {
        let calls = Atomic<Int>(0)
        let promise = retry(on: .global(), attempts: 1, delay: delay) { () -> FBLPromise<Int> in
            calls.add(1, ordering: .sequentiallyConsistent)
            return FBLPromise(1)
        }
        let failure = try await error(of: promise)
        #expect(Self.isInvalidArgument(failure))
        #expect(calls.load(ordering: .sequentiallyConsistent) == 0)
    }

    @Test("The first attempt runs at once; retries run on the given queue")
    func retriesRunOnTheGivenQueue() async throws {
        let tagged = TaggedQueue("fbl.retry.queue")
        let onQueue = Recorder<Bool>()
        let promise = retry(on: tagged.queue, attempts: 2, delay: 0.01) { () -> FBLPromise<Int> in
            onQueue.record(tagged.isCurrent)
            return FBLPromise(TestError(0))
        }
        // The first attempt ran on this thread before `retry` returned (the retries may already
        // have run too, on a slow run: only the first record is certain here).
        #expect(onQueue.all.first == false)
        _ = try await error(of: promise)
        #expect(onQueue.all == [false, true, true])
    }

    @Test("Each retry waits at least the delay")
    func retriesWaitForTheDelay() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let promise = retry(on: .global(), attempts: 2, delay: 0.05) { () -> FBLPromise<Int> in
            FBLPromise(TestError(0))
        }
        _ = try await error(of: promise)
        // Two retries of 0.05 s each; a tenth of slack for clock granularity.
        #expect(clock.now - start >= .milliseconds(90))
    }

    private static func isInvalidArgument(_ error: (any Error)?) -> Bool {
        if case .invalidArgument? = error as? PromiseError { return true }
        return false
    }
}
