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
    /// A callback that returns the promise `flatMap` returned would make it wait for itself: it is
    /// rejected with ``SelfResolutionError`` when `Failure` can hold one, and the program stops
    /// with that message otherwise (as ``Promise/Resolver/resolve(_:)-(Promise)`` does).
    ///
    /// - Parameters:
    ///   - queue: Where `transform` runs (the main queue by default).
    ///   - transform: Starts the next step; a throw rejects the returned promise.
    @inlinable
    public func flatMap<NewValue: Sendable>(
        on queue: DispatchQueue = Drain.mainQueue,
        _ transform: @escaping @Sendable (Value) throws(Failure) -> Promise<NewValue, Failure>
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
        on queue: DispatchQueue = Drain.mainQueue,
        _ transform: @escaping @Sendable (Value) throws(Failure) -> Promise<NewValue, Failure>
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

    /// Settles as `promise` does, in `drain`; `false` if `promise` is this one (or the promise it
    /// forwards to), which can never settle.
    ///
    /// A pending promise that forwards nowhere yet is *linked*: it forwards to this link's root
    /// (this link, or the promise this link forwards to), which takes its waiters and waits on
    /// its work. A loop that adopts a new promise at every step (`func step() { next().flatMap {
    /// step() } }`) then keeps one root however many steps it takes: each step's promise forwards
    /// to it and is freed once it has run, and cancelling the root reaches the step under way
    /// at once. A promise that has settled, or forwards already (one adopted twice), is waited on
    /// as any input is.
    @inlinable
    final func adopt(_ promise: PromiseBox<Value, Failure>, in drain: UnsafeMutablePointer<Drain>) -> Bool {
        let root = self.root
        // Adopting itself, or a promise that forwards to it already, would wait for ever.
        guard promise.root !== root else { return false }
        if link(promise, to: root, in: drain) {
            if !root.adoptByForward(promise) {
                // The root was cancelled meanwhile: no one wants the promise's work.
                CancellationWalk.cancelWork(of: promise)
            }
            return true
        }
        let stillWanted = withControl { control in
            guard control.phase != .cancelled else { return false }
            adopted = promise
            // The flag said how the link joined its input, which it has let go.
            joinedThroughForward = false
            return true
        }
        guard stillWanted else {
            // Cancelled while the step ran: no one wants the adopted promise through this link.
            CancellationWalk.cancel(promise)
            return true
        }
        queue = nil
        promise.register(self, in: drain)
        return true
    }

    /// A promise that forwards to this one now (``adopt(_:in:)``): a cancellation walk from this
    /// one goes on to it. `false` when this one is no longer pending.
    @usableFromInline
    override final func adoptByForward(_ promise: PromiseBox<Value, Failure>) -> Bool {
        withControl { control in
            guard control.isOpen else { return false }
            adopted = promise
            return true
        }
    }

    @usableFromInline
    override func upstreamsLocked() -> CancellationWalk.Upstreams {
        if let adopted { return .one(adopted, through: self) }
        return super.upstreamsLocked()
    }

    @usableFromInline
    override func inputAbandoned() {
        withControl { _ in
            input = nil
            adopted = nil
        }
    }

    @usableFromInline
    override func retarget(from old: Node, to new: Node) {
        withControl { _ in
            if adopted === old {
                adopted = unsafeDowncast(new, to: PromiseBox<Value, Failure>.self)
                joinedThroughForward = true
            }
        }
        super.retarget(from: old, to: new)
    }

    @usableFromInline
    override final func forwardingPromiseFreed(_ promise: PromiseBox<Value, Failure>) {
        withControl { _ in if adopted === promise { adopted = nil } }
    }
}

/// The link of ``Promise/flatMap(on:_:)``.
@usableFromInline
final class FlatMapLink<Input: Sendable, Value: Sendable, Failure: Error>:
    AdoptingLink<Input, Failure, Value, Failure>, @unchecked Sendable
{
    // `@unchecked Sendable`: as `Link`; `transform` is read and cleared only by the step.
    @exclusivity(unchecked) @usableFromInline var transform:
        (@Sendable (Input) throws(Failure) -> Promise<Value, Failure>)?

    @inlinable
    init(
        input: PromiseBox<Input, Failure>, queue: DispatchQueue,
        transform: @escaping @Sendable (Input) throws(Failure) -> Promise<Value, Failure>
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
        case .fulfilled(let value):
            do throws(Failure) {
                let promise = try transform!(value)
                if !adopt(promise.box, in: drain) {
                    // The callback returned the promise flatMap returned: it would wait for itself.
                    complete(.rejected(misuse(SelfResolutionError(), as: Failure.self)), in: drain)
                }
            } catch {
                complete(.rejected(error), in: drain)
            }
        case .rejected(let failure): complete(.rejected(failure), in: drain)
        case .cancelled: complete(.cancelled, in: drain)
        }
    }
}
