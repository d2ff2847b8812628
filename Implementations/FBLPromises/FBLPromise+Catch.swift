public import Dispatch

extension FBLPromise {
    /// What ``catch(on:_:)-(DispatchQueue,_)`` runs with the error (google/promises' `Catch`).
    public typealias Catch = @Sendable (any Error) -> Void

    /// Observes a rejection: `reject` runs on `queue` with the error, and the returned promise is
    /// rejected with the same error. A fulfilment passes through without calling `reject`.
    ///
    /// `catch` does not recover; use ``recover(on:_:)-(_,(Error)->FBLPromise<Value>)`` for that.
    ///
    /// - Parameters:
    ///   - queue: Where `reject` runs.
    ///   - reject: Handles the error.
    /// - Returns: A promise that settles as this one does.
    @inlinable @discardableResult
    public func `catch`(
        on queue: DispatchQueue = defaultQueue,
        _ reject: @escaping Catch
    ) -> FBLPromise<Value> {
        chain(
            on: queue,
            chainedFulfill: { .value($0) },
            chainedReject: { error in
                reject(error)
                return .error(error)
            }
        )
    }
}
