public import Dispatch
import PromiseRuntime

extension Promise {
    /// Calls `body` with the failure on `queue` if this promise is rejected; the returned promise
    /// settles as this one does.
    ///
    /// ```swift
    /// loadUser(id: "42")
    ///     .map(on: .main) { user in show(user) }
    ///     .catch(on: .main) { error in showAlert(error) }   // one handler for every step
    /// ```
    ///
    /// To turn a failure into a value, use ``recover(on:_:)-(_,(Failure)->Value)``.
    @inlinable
    @discardableResult
    public func `catch`(
        on queue: DispatchQueue = Drain.mainQueue,
        _ body: @escaping @Sendable (Failure) -> Void
    ) -> Promise {
        let link = ObserveLink(input: box, queue: queue) { outcome in
            if case .rejected(let failure) = outcome { body(failure) }
        }
        link.attach()
        return Promise(box: link)
    }
}

/// A link that calls `body` with its input's outcome and settles as the input did: `catch`,
/// `always`, and the main-actor forms of both.
@usableFromInline
final class ObserveLink<Value: Sendable, Failure: Error>: Link<Value, Failure, Value, Failure>, @unchecked Sendable {
    // `@unchecked Sendable`: as `Link`; `body` is read and cleared only by `step`.
    @exclusivity(unchecked) @usableFromInline var body: (@Sendable (Promise<Value, Failure>.Outcome) -> Void)?

    @inlinable
    init(
        input: PromiseBox<Value, Failure>, queue: DispatchQueue,
        body: @escaping @Sendable (Promise<Value, Failure>.Outcome) -> Void
    ) {
        self.body = body
        super.init(input: input, queue: queue) { node, operation, drain in
            let link = unsafeDowncast(node, to: ObserveLink.self)
            guard operation == .run else { return link.destroyOutcome() }
            link.runStep { outcome in
                link.body.take()!(outcome)
                link.complete(outcome, in: drain!)
            }
        }
    }
}
