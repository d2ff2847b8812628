public import Dispatch
public import Foundation

extension FBLPromise {
    /// Fulfils with this promise's value `interval` seconds after it is fulfilled; a rejection
    /// passes through at once, undelayed.
    ///
    /// - Parameters:
    ///   - queue: Where this promise is observed and the delayed fulfilment happens.
    ///   - interval: Seconds to wait; finite and not negative.
    /// - Returns: A promise of the same value, later. An invalid interval rejects it with
    ///   ``PromiseError/invalidArgument(_:)``.
    public func delay(on queue: DispatchQueue = defaultQueue, _ interval: TimeInterval) -> FBLPromise<Value> {
        if let error = invalidInterval(interval, in: "delay") {
            return FBLPromise(error)
        }
        let promise = FBLPromise<Value>.pending()
        observe(
            on: queue,
            fulfill: { value in
                queue.asyncAfter(deadline: .now() + interval) { promise.fulfill(value) }
            },
            reject: promise.reject
        )
        return promise
    }
}
