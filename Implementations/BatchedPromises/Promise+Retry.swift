public import Dispatch
import Synchronization

extension Promise {
    /// A promise of the first attempt that is fulfilled: `attempt` is called again, after
    /// `delay`, while it is rejected with a failure `shouldRetry` accepts, at most `attempts`
    /// times in all.
    ///
    /// ```swift
    /// let page = Promise.retry(attempts: 3, delay: .seconds(1)) { load(url) }
    /// ```
    ///
    /// Cancelling the returned promise cancels the attempt under way and stops the retries.
    ///
    /// - Parameters:
    ///   - attempts: How many times `attempt` may be called, at least 1.
    ///   - delay: How long to wait before each retry.
    ///   - queue: Where `attempt` and `shouldRetry` run (the main queue by default).
    ///   - shouldRetry: Whether a failure is worth another attempt (every one by default).
    ///   - attempt: Starts one attempt.
    public static func retry(
        attempts: Int, delay: DispatchTimeInterval = .seconds(0), on queue: DispatchQueue = .main,
        while shouldRetry: @escaping @Sendable (Failure) -> Bool = { _ in true },
        _ attempt: @escaping @Sendable () -> Promise
    ) -> Promise {
        precondition(attempts >= 1, "retry needs at least one attempt")
        let (promise, resolver) = makePending()
        let current = CurrentAttempt<Promise>()
        resolver.onCancel { current.promise.withLock { $0 }?.cancel() }
        @Sendable func run(_ number: Int) {
            guard !resolver.isCancelled else { return }
            let next = attempt()
            current.promise.withLock { $0 = next }
            next.whenComplete(on: queue) { outcome in
                if case .rejected(let failure) = outcome, number < attempts, shouldRetry(failure) {
                    if delay == .seconds(0) {
                        run(number + 1)
                    } else {
                        queue.asyncAfter(deadline: .now() + delay) { run(number + 1) }
                    }
                    return
                }
                switch outcome {
                case .fulfilled(let value): resolver.fulfill(value)
                case .rejected(let failure): resolver.reject(failure)
                case .cancelled: promise.cancel()
                }
            }
        }
        queue.async { run(1) }
        return promise
    }
}

/// The attempt of ``Promise/retry(attempts:delay:on:while:_:)`` under way, for its cancellation.
private final class CurrentAttempt<Attempt: Sendable>: Sendable {
    let promise = Mutex<Attempt?>(nil)
}
