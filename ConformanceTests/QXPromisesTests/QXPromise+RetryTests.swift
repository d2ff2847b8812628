import Dispatch
import QXPromises
import TestSupport
import Testing

@Suite("QX retry")
struct QXRetryTests {
    /// A then block that fails `failures` times, then succeeds, recording its inputs.
    static func flaky(failures: Int, inputs: Recorder<Int>) -> QXThenBlock {
        { value in
            let input = value as! Int
            inputs.record(input)
            guard inputs.count > failures else { throw TestError(inputs.count) }
            return input * 10
        }
    }

    @Test("a failed step runs again with the input it kept, until it succeeds")
    func retriesWithKeptInput() async throws {
        let inputs = Recorder<Int>()
        let step = QXPromise(fulfilledWith: 7).then(on: .global(), Self.flaky(failures: 2, inputs: inputs))
        let retried = step.retry(3, on: .global())
        #expect(try await value(of: retried) as? Int == 70)
        #expect(inputs.all == [7, 7, 7])
        #expect(step.valueKeptForRetry.flatMap { $0 as? Int } == 7)
    }

    @Test("when every attempt fails, the last error rejects")
    func exhausted() async throws {
        let inputs = Recorder<Int>()
        let retried = QXPromise(fulfilledWith: 1).then(on: .global(), Self.flaky(failures: 10, inputs: inputs))
            .retry(2, on: .global())
        #expect(try await error(of: retried) as? TestError == TestError(3))
        #expect(inputs.count == 3)
    }

    @Test("a step whose returned promise is rejected is retried too")
    func retriesRejectedPromise() async throws {
        let attempts = Recorder<Int>()
        let retried = QXPromise(fulfilledWith: 1)
            .then(on: .global()) { _ in
                attempts.record(1)
                return attempts.count < 2 ? QXPromise(rejectedWith: TestError()) : QXPromise(fulfilledWith: "ok")
            }
            .retry(1, on: .global())
        #expect(try await value(of: retried) as? String == "ok")
        #expect(attempts.count == 2)
    }

    @Test("a rejection that did not come from the step has nothing to retry and passes through")
    func upstreamRejection() async throws {
        let inputs = Recorder<Int>()
        let step = QXPromise(rejectedWith: TestError(9)).then(on: .global(), Self.flaky(failures: 0, inputs: inputs))
        #expect(try await error(of: step.retry(3, on: .global())) as? TestError == TestError(9))
        #expect(inputs.count == 0)
        #expect(step.valueKeptForRetry == nil)
    }

    @Test("a fulfilled step passes through and keeps no input")
    func fulfilledStep() async throws {
        let step = QXPromise(fulfilledWith: 2).then(on: .global()) { $0 }
        #expect(try await value(of: step.retry(1, on: .global())) as? Int == 2)
        #expect(step.valueKeptForRetry == nil)
    }

    @Test("zero attempts does not retry; negative attempts is a clear error and runs nothing")
    func invalidAttempts() async throws {
        let inputs = Recorder<Int>()
        let step = QXPromise(fulfilledWith: 1).then(on: .global(), Self.flaky(failures: 1, inputs: inputs))
        #expect(try await error(of: step.retry(0, on: .global())) as? TestError == TestError(1))
        let invalid = step.retry(-1, on: .global())
        guard case .invalidArgument(let reason) = try await error(of: invalid) as? QXPromiseError else {
            Issue.record("expected invalidArgument")
            return
        }
        #expect(reason.contains("-1"))
        #expect(inputs.count == 1)
    }
}
