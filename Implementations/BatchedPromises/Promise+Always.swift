public import Dispatch
import PromiseRuntime

extension Promise {
    /// Calls `body` on `queue` however this promise settles, cancelled included; the returned
    /// promise settles as this one does.
    ///
    /// ```swift
    /// loadUser(id: "42").always(on: .main) { spinner.stop() }
    /// ```
    @inlinable
    @discardableResult
    public func always(on queue: DispatchQueue = Drain.mainQueue, _ body: @escaping @Sendable () -> Void) -> Promise {
        let link = ObserveLink(input: box, queue: queue) { _ in body() }
        link.attach()
        return Promise(box: link)
    }
}
