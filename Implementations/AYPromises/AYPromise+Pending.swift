public import Dispatch
public import SharedPromiseTypes

extension AYPromise {
    /// Makes a pending promise and the callback that resolves it, for a promise settled from
    /// outside a block (an event, a delegate callback, a test): ``withResolve(_:)`` without the
    /// block, so nothing is dispatched until `resolve` is called.
    ///
    /// ```swift
    /// let download = AYPromise.pending()
    /// downloader.onFinish = { data in download.resolve(data) }
    /// download.promise.then { data in show(data) }
    /// ```
    ///
    /// `resolve` does what the ``AYResolve`` that ``withResolve(_:)`` hands its block does: the
    /// first call counts, later ones are ignored; a promise or thenable is adopted, an `Error`
    /// rejects, anything else (`nil` included) fulfils. It may be called from any thread, and
    /// `download.resolve` passes it on as an ``AYResolve``.
    ///
    /// A thenable given to `resolve` is asked for its outcome on the main queue, as in
    /// ``withResolve(_:)``; ``pending(resolvingOn:)`` names another queue.
    ///
    /// - Returns: The pending promise and its resolve function.
    public static func pending() -> Pending {
        Pending(promise: AYPromise(pending: ()), queue: nil)
    }

    /// ``pending()`` with thenables given to `resolve` asked for their outcome on `queue`.
    public static func pending(resolvingOn queue: DispatchQueue) -> Pending {
        Pending(promise: AYPromise(pending: ()), queue: queue)
    }

    /// A pending promise and the function that resolves it (``pending(resolvingOn:)``).
    ///
    /// `resolve` is a method, not a stored closure: a pending promise costs no callback object
    /// until a caller asks for one (`pending.resolve` as an ``AYResolve``).
    public struct Pending: Sendable {
        /// The promise ``resolve(_:)`` settles.
        public let promise: AYPromise
        /// Where a thenable given to ``resolve(_:)`` is asked for its outcome; `nil` for the main
        /// queue, whose wrapper object is made only when it is needed.
        let queue: DispatchQueue?

        /// Resolves ``promise`` on the first call; later calls are ignored.
        ///
        /// - Parameter value: A value fulfils, an `Error` rejects, a promise or thenable is
        ///   adopted.
        public func resolve(_ value: PromiseValue) { promise.resolveFirst(value, on: queue ?? .main) }
    }
}
