public import Dispatch
public import Foundation

extension FBLPromise {
    /// Settles as this promise does, or rejects with ``PromiseError/timedOut`` if this promise has
    /// not settled within `interval` seconds.
    ///
    /// This promise itself is not affected (nothing is cancelled); only the returned promise gives
    /// up waiting.
    ///
    /// - Parameters:
    ///   - queue: Where this promise is observed and the timer fires.
    ///   - interval: Seconds to wait; finite and not negative (zero times out unless this promise
    ///     settles first).
    /// - Returns: A promise of this promise's outcome or of the timeout. An invalid interval rejects
    ///   it with ``PromiseError/invalidArgument(_:)``.
    @discardableResult
    public func timeout(on queue: DispatchQueue = defaultQueue, _ interval: TimeInterval) -> FBLPromise<Value> {
        if let error = invalidInterval(interval, in: "timeout") {
            return FBLPromise(error)
        }
        let promise = FBLPromise<Value>.pending()
        observe(on: queue, fulfill: promise.fulfill, reject: promise.reject)
        // A promise that has already settled has settled first: arming a timer would let it race
        // the observer's callback on a concurrent queue (even with a zero interval).
        guard isPending else { return promise }
        // Weak, as in the original: once this promise has settled, its observer no longer holds
        // `promise`, and a long timer must not keep it (and its value) alive until it fires.
        queue.asyncAfter(deadline: .now() + interval) { [weak promise] in
            promise?.reject(PromiseError.timedOut)
        }
        return promise
    }
}
