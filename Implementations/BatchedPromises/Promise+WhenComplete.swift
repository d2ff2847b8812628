public import Dispatch
import PromiseRuntime

extension Promise {
    /// Calls `body` with the outcome on `queue` once this promise settles, without making a new
    /// promise: the cheapest way to observe one.
    ///
    /// ```swift
    /// loadUser(id: "42").whenComplete(on: .main) { outcome in
    ///     switch outcome {
    ///     case .fulfilled(let user): show(user)
    ///     case .rejected(let error): showAlert(error)
    ///     case .cancelled: break
    ///     }
    /// }
    /// ```
    ///
    /// An observer is a waiter that wants the outcome, so it keeps a promise from being cancelled
    /// by a walk from another waiter.
    @inlinable
    public func whenComplete(
        on queue: DispatchQueue = .main,
        _ body: @escaping @Sendable (Outcome) -> Void
    ) {
        box.register(Observer(input: box, queue: queue, body: body))
    }
}

/// The node of ``Promise/whenComplete(on:_:)``: a callback and no promise.
@usableFromInline
final class Observer<Value: Sendable, Failure: Error>: Node, @unchecked Sendable {
    // `@unchecked Sendable`: `input` is set once and read by `run` only, once the input has
    // scheduled it; `body` is read and cleared only by `run`.
    @usableFromInline unowned(unsafe) let input: PromiseBox<Value, Failure>
    @exclusivity(unchecked) @usableFromInline var body: (@Sendable (Promise<Value, Failure>.Outcome) -> Void)?

    @inlinable
    init(
        input: PromiseBox<Value, Failure>, queue: DispatchQueue?,
        body: @escaping @Sendable (Promise<Value, Failure>.Outcome) -> Void
    ) {
        self.input = input
        self.body = body
        super.init(queue: queue) { node, operation, _ in
            guard operation == .run else { return }
            let observer = unsafeDowncast(node, to: Observer.self)
            let outcome = observer.input.settledOutcome
            observer.input.releaseFromNode()
            observer.body.take()!(outcome)
        }
    }
}
