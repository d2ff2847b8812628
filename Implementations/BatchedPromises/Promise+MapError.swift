public import Dispatch

extension Promise {
    /// A promise with this promise's value, or rejected with what `transform` makes of its
    /// failure, called on `queue`; a cancellation passes on.
    ///
    /// ```swift
    /// let user = loadUser(id: "42").mapError(on: .main) { AppError.network($0) }
    /// ```
    @inlinable
    public func mapError<NewFailure: Error>(
        on queue: DispatchQueue = Drain.mainQueue,
        _ transform: @escaping @Sendable (Failure) -> NewFailure
    ) -> Promise<Value, NewFailure> {
        recover(on: queue) { (failure: Failure) throws(NewFailure) -> Value in throw transform(failure) }
    }
}
