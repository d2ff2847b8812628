public import Dispatch

extension FBLPromise {
    /// What the work-block initializers run (google/promises' `Do`).
    public typealias Do<Result> = @Sendable () throws -> Result

    /// Runs `work` at once on `queue` and fulfils with what it returns (the original's
    /// `onQueue:do:`). A returned error value or a throw rejects.
    ///
    /// - Parameters:
    ///   - queue: Where `work` runs.
    ///   - work: Produces the value.
    public convenience init(on queue: DispatchQueue = defaultQueue, _ work: @escaping Do<Value>) {
        self.init(on: queue, running: { $0.resolve(try work(), on: queue) })
    }

    /// Runs `work` at once on `queue` and adopts the promise it returns. A throw rejects.
    ///
    /// Disfavoured, so that a block that only throws (`FBLPromise<Int> { throw error }`) picks
    /// the value form above instead of being ambiguous; both reject the same way.
    ///
    /// - Parameters:
    ///   - queue: Where `work` runs.
    ///   - work: Produces the promise to adopt.
    @_disfavoredOverload
    public convenience init(
        on queue: DispatchQueue = defaultQueue,
        _ work: @escaping Do<FBLPromise<Value>>
    ) {
        self.init(on: queue, running: { $0.resolve(try work(), on: queue) })
    }
}
