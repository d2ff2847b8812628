public import Dispatch

extension FBLPromise {
    /// Runs `work` at once on `queue` and fulfils with what it returns (the original's
    /// `onQueue:do:`). A returned `Error` value or a throw rejects.
    ///
    /// - Parameters:
    ///   - queue: Where `work` runs.
    ///   - work: Produces the value.
    public convenience init(on queue: DispatchQueue = defaultQueue, _ work: @escaping @Sendable () throws -> Value) {
        self.init(pending: ())
        queue.async(group: fblDispatchGroup) {
            do {
                self.resolve(try work(), on: queue)
            } catch {
                self.reject(error)
            }
        }
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
        self.init(pending: ())
        queue.async(group: fblDispatchGroup) {
            do {
                self.resolve(try work(), on: queue)
            } catch {
                self.reject(error)
            }
        }
    }
}
