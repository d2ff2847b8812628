import Dispatch
import PromiseRuntime

extension AYPromise: Thenable {
    /// Lets any design's resolution procedure adopt this promise: the matching callback is
    /// dispatched onto the main queue once it settles (the AY default queue).
    ///
    /// This is for interoperability (Promises/A+ 2.3.3); in Swift code chain with ``then`` and
    /// ``catch``.
    public func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) {
        pipe { outcome in
            DispatchQueue.main.async {
                switch outcome {
                case .success(let value): resolvePromise(value)
                case .failure(let error): rejectPromise(error)
                }
            }
        }
    }
}
