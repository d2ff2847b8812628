public import Dispatch
import PromiseRuntime

extension Promise {
    /// Calls `body` with the outcome on `queue` once this promise settles, without making a new
    /// promise: one object, and no promise for callbacks after it.
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
        on queue: DispatchQueue = Drain.mainQueue,
        _ body: @escaping @Sendable (Outcome) -> Void
    ) {
        box.register(Observer(input: box, queue: queue, body: body))
    }
}

/// The node of ``Promise/whenComplete(on:_:)``: a callback and no promise.
@usableFromInline
final class Observer<Value: Sendable, Failure: Error>: Node, @unchecked Sendable {
    // `@unchecked Sendable`: `input` is written only while the observer is in no list and runs
    // nowhere (made, or moved to the root its input forwards to), and read by `run` once the input
    // has scheduled it; `body` is read and cleared only by `run`.
    @exclusivity(unchecked) @usableFromInline unowned(unsafe) var input: PromiseBox<Value, Failure>
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

    @usableFromInline
    override func retarget(from old: Node, to new: Node) {
        if input === old { input = unsafeDowncast(new, to: PromiseBox<Value, Failure>.self) }
    }
}
