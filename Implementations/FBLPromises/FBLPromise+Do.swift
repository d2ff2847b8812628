public import Dispatch

extension FBLPromise {
    /// Runs `work` at once on `queue` and fulfils with what it returns (the original's
    /// `onQueue:do:`). A returned error value or a throw rejects.
    ///
    /// - Parameters:
    ///   - queue: Where `work` runs.
    ///   - work: Produces the value.
    public convenience init(on queue: DispatchQueue = defaultQueue, _ work: @escaping @Sendable () throws -> Value) {
        self.init(on: queue, running: { $0.resolve(try work(), on: queue) })
    }

    /// Runs `work` at once on `queue` and adopts the promise it returns. A throw rejects.
    ///
    /// - Parameters:
    ///   - queue: Where `work` runs.
    ///   - work: Produces the promise to adopt.
    public convenience init(
        on queue: DispatchQueue = defaultQueue,
        _ work: @escaping @Sendable () throws -> FBLPromise<Value>
    ) {
        self.init(on: queue, running: { $0.resolve(try work(), on: queue) })
    }
}
