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
    /// function was called before).
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
        self.init(on: queue, running: { try work($0.fulfill, $0.reject) })
    }
}
