import PromiseRuntime

extension QXPromise: Thenable {
    /// Lets any design's resolution procedure adopt this promise: the callbacks run on the
    /// ``QXPromise/defaultQueue`` once it settles (observed through the `state` key).
    ///
    /// In Swift code use ``then(on:_:)-(DispatchQueue,_)`` and ``catch(on:_:)-(DispatchQueue,_)``.
    public func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) {
        let queue = QXPromise.defaultQueue
        whenSettled { outcome in
            queue.async {
                switch outcome {
                case .fulfilled(let value): resolvePromise(value)
                case .rejected(let error): rejectPromise(error)
                }
            }
        }
    }
}
