public import Dispatch

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
    /// The retry holds the attempt under way only through that attempt's own callback: a retry
    /// whose attempt can never settle, once nothing else holds either, is freed with it, as an
    /// abandoned promise is.
    ///
    /// - Parameters:
    ///   - attempts: How many times `attempt` may be called, at least 1. With fewer, no attempt is
    ///     made: the promise is rejected with ``InvalidArgument`` when `Failure` can hold one
    ///     (`any Error` can), and the program stops with that message otherwise, in every build.
    ///   - delay: How long to wait before each retry.
    ///   - queue: Where `attempt` and `shouldRetry` run (the main queue by default).
    ///   - shouldRetry: Whether a failure is worth another attempt (every one by default).
    ///   - attempt: Starts one attempt.
    public static func retry(
        attempts: Int, delay: DispatchTimeInterval = .seconds(0), on queue: DispatchQueue = Drain.mainQueue,
        while shouldRetry: @escaping @Sendable (Failure) -> Bool = { _ in true },
        _ attempt: @escaping @Sendable () -> Promise
    ) -> Promise {
        guard attempts >= 1 else {
            return Promise(
                failure: misuse(
                    InvalidArgument("retry(attempts:) needs at least one attempt, and was given \(attempts)"),
                    as: Failure.self))
        }
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
///
/// Both are held weakly: the retry's cancellation handler holds this object, and the attempt holds
/// its observer, whose callback holds the retry, so a strong reference to either would be a cycle
/// that keeps an attempt no one can settle, and the retry, alive for ever. The observer lives as
/// long as it waits in the attempt's list, which is as long as there is anything to withdraw.
///
/// `@unchecked Sendable`: ``lock`` guards ``attempt`` and ``observer``.
private final class CurrentAttempt: @unchecked Sendable {
    private let lock = Lock()
    private weak var attempt: Node?
    private weak var observer: Node?

    func set(_ observer: Node, waitingOn box: Node) {
        lock.withLock {
            attempt = box
            self.observer = observer
        }
    }

    /// Withdraws the observer from the attempt: the attempt is cancelled where no one else waits
    /// for it.
    func withdraw() {
        let (box, observer) = lock.withLock { () -> (Node?, Node?) in
            defer {
                attempt = nil
                self.observer = nil
            }
            return (attempt, self.observer)
        }
        guard let box, let observer else { return }
        CancellationWalk.walk(from: (.passUnretained(box), .passUnretained(observer), false, false))
        withExtendedLifetime((box, observer)) {}
    }
}
