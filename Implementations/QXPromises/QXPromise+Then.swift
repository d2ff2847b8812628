public import Dispatch
import PromiseRuntime

extension QXPromise {
    /// Runs `block` with the value when this promise is fulfilled; a rejection passes through.
    ///
    /// The article's `then`: a new promise is made whose work resolves it with this promise, so it
    /// observes this promise's `state` key and stores `block` as its `thenBlock`. What `block`
    /// returns resolves the new promise: a ``QXPromise`` is observed in turn, a thenable is
    /// assimilated, anything else fulfils; a throw rejects.
    ///
    /// ```swift
    /// QXPromise(fulfilledWith: 21).then { ($0 as! Int) * 2 }.then { value in
    ///     print(value!)   // 42
    ///     return value
    /// }
    /// ```
    ///
    /// A one-expression block whose expression returns nothing (`.then { print($0!) }`) compiles
    /// and fulfils the new promise with `()`, as the block's type returns a `PromiseValue` and
    /// `()` is one: return the value to pass it on, or `nil`.
    ///
    /// - Parameters:
    ///   - queue: Where `block` runs, asynchronously, never before `then` returns.
    ///   - block: Maps the value.
    /// - Returns: The new promise; it keeps itself alive until it settles.
    @discardableResult
    public func then(on queue: DispatchQueue = defaultQueue, _ block: @escaping QXThenBlock) -> QXPromise {
        chain(on: queue, thenBlock: block, catchBlock: nil)
    }

    /// Makes a link that observes this promise and runs `thenBlock` or `catchBlock` when it
    /// settles (either may be `nil`: that outcome passes through). Every operator is built on it.
    ///
    /// - Parameters:
    ///   - queue: The link's callback queue, where the blocks run.
    ///   - thenBlock: Run with the value if this promise is fulfilled.
    ///   - catchBlock: Run with the error if this promise is rejected.
    /// - Returns: The link.
    public func chain(
        on queue: DispatchQueue = defaultQueue,
        thenBlock: QXThenBlock?,
        catchBlock: QXCatchBlock?
    ) -> QXPromise {
        // As in the article: the link is resolved with the previous promise, which makes it observe
        // that promise's state. Made following it, with no resolver and no cycle check: nothing
        // can reach a link just made, and the walk would cost up to 100 locks per link of a long
        // pending chain.
        let link = QXPromise(
            linkOn: queue, following: self, blocks: QXBlocks(thenBlock: thenBlock, catchBlock: catchBlock))
        addFollower(link)
        return link
    }
}
