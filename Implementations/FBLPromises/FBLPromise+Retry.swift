public import Dispatch
public import Foundation

/// Runs `work` and, while the promise it returns is rejected, runs it again after `interval`, up
/// to `count` more times.
///
/// The first attempt runs at once on the calling thread (as in the original); retries run on
/// `queue`. Before each retry, `predicate` (if given) receives the number of retries left and the
/// error, and can stop retrying by returning `false`; the promise is then rejected with that error.
///
/// ```swift
/// retry(attempts: 3, delay: 0.5) { fetchProfile() }
///     .then { show($0) }
/// ```
///
/// - Parameters:
///   - queue: Where attempts are observed and retries run.
///   - count: How many times to retry after the first attempt; must not be negative.
///   - interval: Seconds to wait before each retry; finite and not negative.
///   - predicate: Decides whether to retry, given the retries left and the error.
///   - work: Starts one attempt.
/// - Returns: A promise that settles as the last attempt. Invalid arguments reject it with
///   ``PromiseError/invalidArgument(_:)`` without running `work`.
public func retry<Value: Sendable>(
    on queue: DispatchQueue = FBLPromise<Value>.defaultQueue,
    attempts count: Int = 1,
    delay interval: TimeInterval = 1,
    condition predicate: (@Sendable (_ remainingAttempts: Int, _ error: any Error) -> Bool)? = nil,
    _ work: @escaping @Sendable () throws -> FBLPromise<Value>
) -> FBLPromise<Value> {
    guard count >= 0 else {
        return FBLPromise(PromiseError.invalidArgument("retry needs a non-negative number of attempts; got \(count)"))
    }
    if let error = invalidInterval(interval, in: "retry") {
        return FBLPromise(error)
    }
    let promise = FBLPromise<Value>.pending()
    let loop = RetryLoop(promise: promise, queue: queue, interval: interval, predicate: predicate, work: work)
    loop.attempt(remaining: count)
    return promise
}

/// One `retry` call's fixed parts; each attempt schedules the next one.
private final class RetryLoop<Value: Sendable>: Sendable {
    let promise: FBLPromise<Value>
    let queue: DispatchQueue
    let interval: TimeInterval
    let predicate: (@Sendable (Int, any Error) -> Bool)?
    let work: @Sendable () throws -> FBLPromise<Value>

    init(
        promise: FBLPromise<Value>,
        queue: DispatchQueue,
        interval: TimeInterval,
        predicate: (@Sendable (Int, any Error) -> Bool)?,
        work: @escaping @Sendable () throws -> FBLPromise<Value>
    ) {
        self.promise = promise
        self.queue = queue
        self.interval = interval
        self.predicate = predicate
        self.work = work
    }

    func attempt(remaining: Int) {
        let attempt: FBLPromise<Value>
        do {
            attempt = try work()
        } catch {
            attempt = FBLPromise(error)
        }
        attempt.observe(
            on: queue,
            fulfill: promise.fulfill,
            reject: { error in
                guard remaining > 0, self.predicate?(remaining, error) ?? true else {
                    self.promise.reject(error)
                    return
                }
                self.queue.asyncAfter(deadline: .now() + self.interval) {
                    self.attempt(remaining: remaining - 1)
                }
            }
        )
    }
}
