public import Dispatch

extension QXPromise {
    /// Handles a rejection: `block` runs with the error and decides what comes next; a fulfilment
    /// passes through without calling it.
    ///
    /// What `block` returns fulfils the next promise (return `nil` to just continue), a promise is
    /// observed in turn, a throw rejects. The article's code called the fulfil block after the
    /// catch block, so a catch block could never decide; here only the block decides.
    ///
    /// A one-expression block whose expression returns nothing (`.catch { log($0) }`) compiles
    /// and *recovers* with `()`, as the block's type returns a `PromiseValue` and `()` is one:
    /// rethrow to stay rejected.
    ///
    /// ```swift
    /// load().catch { error in
    ///     log(error)
    ///     return cachedValue        // the chain continues with it
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - queue: Where `block` runs, asynchronously.
    ///   - block: Handles the error.
    /// - Returns: The new promise.
    @discardableResult
    public func `catch`(on queue: DispatchQueue = defaultQueue, _ block: @escaping QXCatchBlock) -> QXPromise {
        chain(on: queue, thenBlock: nil, catchBlock: block)
    }
}
