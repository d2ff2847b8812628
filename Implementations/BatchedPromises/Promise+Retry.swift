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
    /// Cancelling the returned promise withdraws from the attempt under way (cancelled where no one
    /// else waits for it) and stops the retries.
    ///
    /// - Parameters:
    ///   - attempts: How many times `attempt` may be called, at least 1.
    ///   - delay: How long to wait before each retry.
    ///   - queue: Where `attempt` and `shouldRetry` run (the main queue by default).
    ///   - shouldRetry: Whether a failure is worth another attempt (every one by default).
    ///   - attempt: Starts one attempt.
    public static func retry(
        attempts: Int, delay: DispatchTimeInterval = .seconds(0), on queue: DispatchQueue = Drain.mainQueue,
        while shouldRetry: @escaping @Sendable (Failure) -> Bool = { _ in true },
        _ attempt: @escaping @Sendable () -> Promise
    ) -> Promise {
        precondition(attempts >= 1, "retry needs at least one attempt")
        let (promise, resolver) = makePending()
        let current = CurrentAttempt()
        resolver.onCancel { current.withdraw() }
        @Sendable func run(_ number: Int) {
            guard !resolver.isCancelled else { return }
            let next = attempt()
            let observer = Observer(input: next.box, queue: queue) { outcome in
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
            current.set(observer, waitingOn: next.box)
            next.box.register(observer)
            // Cancelled while the attempt started: the handler may have found no attempt.
            if resolver.isCancelled { current.withdraw() }
        }
        queue.async { run(1) }
        return promise
    }
}

/// The attempt of ``Promise/retry(attempts:delay:on:while:_:)`` under way and the observer that
/// waits on it, for its cancellation.
private final class CurrentAttempt: Sendable {
    /// Guards the attempt and its observer.
    private let attempt = Mutex<(box: Node, observer: Node)?>(nil)

    func set(_ observer: Node, waitingOn box: Node) {
        attempt.withLock { $0 = (box, observer) }
    }

    /// Withdraws the observer from the attempt: the attempt is cancelled where no one else waits
    /// for it.
    func withdraw() {
        guard let (box, observer) = attempt.withLock({ $0.take() }) else { return }
        CancellationWalk.walk(from: (.passUnretained(box), .passUnretained(observer), false, false))
        withExtendedLifetime(box) {}
    }
}
