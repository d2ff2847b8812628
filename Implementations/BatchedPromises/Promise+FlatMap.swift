public import Dispatch

extension Promise {
    /// A promise that settles as the promise `transform` returns, called with this promise's
    /// value on `queue`; a rejection or a cancellation passes on without calling `transform`.
    ///
    /// ```swift
    /// let avatar = loadUser(id: "42").flatMap(on: .main) { user in loadAvatar(of: user) }
    /// ```
    ///
    /// The returned promise waits on `transform`'s promise with no dispatch of its own: it
    /// settles where that promise settles, and its own callbacks run on their queues. Cancelling
    /// it cancels `transform`'s promise when no one else waits for it.
    ///
    /// - Parameters:
    ///   - queue: Where `transform` runs (the main queue by default).
    ///   - transform: Starts the next step.
    @inlinable
    public func flatMap<NewValue: Sendable>(
        on queue: DispatchQueue = .main,
        _ transform: @escaping @Sendable (Value) -> Promise<NewValue, Failure>
    ) -> Promise<NewValue, Failure> {
        let link = FlatMapLink(input: box, queue: queue, transform: transform)
        link.attach()
        return Promise<NewValue, Failure>(box: link)
    }

    /// ``flatMap(on:_:)`` under the name Promises/A+ gives it: a callback that returns a promise
    /// is adopted.
    @inlinable
    @discardableResult
    public func then<NewValue: Sendable>(
        on queue: DispatchQueue = .main,
        _ transform: @escaping @Sendable (Value) -> Promise<NewValue, Failure>
    ) -> Promise<NewValue, Failure> {
        flatMap(on: queue, transform)
    }
}

/// A link that, once its step has run, may settle as another promise of its own type does: the
/// base of ``FlatMapLink`` and of the other operators whose step returns a promise. To adopt, the
/// link (in no list once it runs) waits on the adopted promise itself, with no queue: it runs
/// again where that promise settles, with no dispatch, and copies its outcome. A cancellation walk
/// then withdraws it from the adopted promise.
@usableFromInline
class AdoptingLink<Input: Sendable, InputFailure: Error, Value: Sendable, Failure: Error>:
    Link<Input, InputFailure, Value, Failure>, @unchecked Sendable
{
    // `@unchecked Sendable`: as `Link`; `adopted` is guarded by the control's lock.
    /// The promise this one settles as, while it waits for it; held as ``Link/input`` is.
    @exclusivity(unchecked) @usableFromInline final unowned(unsafe) var adopted: PromiseBox<Value, Failure>?

    /// The first run: `step` with the input's outcome (``Link/runStep(_:)``); the second, once
    /// the adopted promise has settled: its outcome, copied.
    @inlinable
    final func runStepOrAdoption(in drain: UnsafeMutablePointer<Drain>, _ step: (InputOutcome) -> Void) {
        let source = withControl { _ in
            let source = adopted
            adopted = nil
            return source
        }
        guard let source else { return runStep(step) }
        let outcome = source.settledOutcome
        source.releaseFromNode()
        complete(outcome, in: drain)
    }

    /// Settles as `promise` does: waits on it, in `drain`.
    @inlinable
    final func adopt(_ promise: PromiseBox<Value, Failure>, in drain: UnsafeMutablePointer<Drain>) {
        let stillPending = withControl { control in
            guard control.isPending else { return false }
            adopted = promise
            return true
        }
        guard stillPending else {
            // Cancelled while the step ran: no one wants the adopted promise through this link.
            CancellationWalk.cancel(promise)
            return
        }
        queue = nil
        promise.register(self, in: drain)
    }

    @usableFromInline
    override func upstreamsLocked() -> CancellationWalk.Upstreams {
        if let adopted { return .one(input: adopted, dependent: self) }
        return super.upstreamsLocked()
    }

    @usableFromInline
    override func inputAbandoned() {
        withControl { _ in
            input = nil
            adopted = nil
        }
    }
}

/// The link of ``Promise/flatMap(on:_:)``.
@usableFromInline
final class FlatMapLink<Input: Sendable, Value: Sendable, Failure: Error>:
    AdoptingLink<Input, Failure, Value, Failure>, @unchecked Sendable
{
    // `@unchecked Sendable`: as `Link`; `transform` is read and cleared only by the step.
    @exclusivity(unchecked) @usableFromInline var transform: (@Sendable (Input) -> Promise<Value, Failure>)?

    @inlinable
    init(
        input: PromiseBox<Input, Failure>, queue: DispatchQueue,
        transform: @escaping @Sendable (Input) -> Promise<Value, Failure>
    ) {
        self.transform = transform
        super.init(input: input, queue: queue) { node, operation, drain in
            let link = unsafeDowncast(node, to: FlatMapLink.self)
            guard operation == .run else { return link.destroyOutcome() }
            link.runStepOrAdoption(in: drain!) { outcome in link.step(outcome, in: drain!) }
        }
    }

    @inlinable
    final func step(_ outcome: InputOutcome, in drain: UnsafeMutablePointer<Drain>) {
        let transform = self.transform.take()
        switch outcome {
        case .fulfilled(let value): adopt(transform!(value).box, in: drain)
        case .rejected(let failure): complete(.rejected(failure), in: drain)
        case .cancelled: complete(.cancelled, in: drain)
        }
    }
}
