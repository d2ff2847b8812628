import PromiseRuntime

extension AYPromise {
    /// Chains a block that runs on the main queue whichever way this promise settles; its return
    /// value becomes the result.
    ///
    /// The block gets the value, or the error if this promise was rejected (the original's
    /// untyped `id`). As with every block, what it returns decides the next promise: a block that
    /// returns nothing *fulfils it with `nil` even after a rejection*, returning the error it was
    /// given passes the rejection on, and a throw rejects.
    ///
    /// ```swift
    /// load()
    ///     .always { hideSpinner() }                       // fulfils with nil either way
    /// load()
    ///     .always { outcome in log(outcome); return outcome }  // passes the outcome on
    /// ```
    ///
    /// Threading: the block runs on the main queue, asynchronously.
    public var always: AYOperator<PromiseValue> {
        AYOperator(source: self, route: .always)
    }
}
