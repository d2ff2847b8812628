public import Dispatch

extension FBLPromise {
    /// What `init(on:_:)` with a `fulfill, reject` block runs: it settles the promise by calling
    /// `fulfill` or `reject` (google/promises' `Async`).
    public typealias Async =
        @Sendable (
            _ fulfill: @escaping @Sendable (Value) -> Void,
            _ reject: @escaping @Sendable (any Error) -> Void
        ) throws -> Void

    /// Starts `work` at once on `queue` and returns a promise it settles by calling `fulfill` or
    /// `reject` (the original's `onQueue:async:`).
    ///
    /// Only the first call to either function counts. A throw from `work` rejects (if neither
    /// function was called before). An FBL promise passed to `fulfill` is adopted, as in
    /// google/promises' Objective-C core: the promise settles as that one does, observed on `queue`
    /// (google's Swift layer hands its own `Promise` over as a plain value instead). Any other value
    /// fulfils, or rejects if it is an error value (``fulfill(_:)``).
    ///
    /// ```swift
    /// let data = FBLPromise<Data>(on: .global()) { fulfill, reject in
    ///     download(url) { data, error in
    ///         if let data { fulfill(data) } else { reject(error ?? DownloadError.empty) }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - queue: Where `work` runs.
    ///   - work: Receives the functions that settle the promise.
    public convenience init(
        on queue: DispatchQueue = defaultQueue,
        _ work: @escaping Async
    ) {
        self.init(
            on: queue,
            running: { promise in
                try work({ promise.fulfill(adopting: $0, on: queue) }, promise.reject)
            })
    }

    /// `async`'s `fulfill`: adopts `value` if it is an FBL promise, fulfils with it otherwise. A
    /// promise whose `Value` is itself a thenable type holds such values: it fulfils with them, as
    /// ``resolve(_:on:)-(Value,_)`` does.
    final func fulfill(adopting value: Value, on queue: DispatchQueue) {
        // A value of a type found plain before is no promise: no cast at all.
        if fblPlainTypes.contains(type(of: value)) || Self.holdsThenables {
            fulfill(value)
        } else if let promise = value as? FBLPromise<Value> {
            resolve(promise, on: queue)
        } else if let promise = value as? any ErasedObservable {
            promise.observeErased(
                on: queue, fulfill: { self.fulfill(dynamic: PromiseValue(handingOver: $0)) }, reject: reject)
        } else {
            fulfill(value)
        }
    }
}
