public import Dispatch
import PromiseRuntime

// Promises of other designs and foreign thenables.
//
// Every promise of this module is a `Thenable`, so the other designs adopt it. The untyped
// promise, `Promise<PromiseValue, any Error>`, also runs the Promises/A+ resolution procedure:
// its resolver's `resolve(_:)` and its two-callback `then` adopt a promise of this module, assimilate
// any other thenable, and reject a promise resolved with itself.

extension Promise: Thenable {
    /// Registers the two callbacks, called where this promise settles: a value is handed over as
    /// it is (`PromiseValue(handingOver:)`), a cancellation rejects with `CancellationError`.
    public func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) {
        box.register(
            Observer(input: box, queue: nil) { outcome in
                switch outcome {
                case .fulfilled(let value): resolvePromise(PromiseValue(handingOver: value))
                case .rejected(let failure): rejectPromise(failure)
                case .cancelled: rejectPromise(CancellationError())
                }
            })
    }
}

extension Promise.Resolver where Value == PromiseValue, Failure == any Error {
    /// Resolves the promise with `value` through the Promises/A+ resolution procedure: a promise
    /// of this module is adopted (itself rejects with ``SelfResolutionError``), any other
    /// `Thenable` is assimilated (its `then` called once; the first callback wins), and anything
    /// else fulfils.
    ///
    /// Only the first settle counts.
    public func resolve(_ value: PromiseValue) {
        guard box.resolverMayAct(lockingIn: value is any Thenable) else { return }
        box.resolve(value, in: nil)
    }
}

extension Promise where Value == PromiseValue, Failure == any Error {
    /// Promises/A+ `then`, on `queue`: a promise of what the callback that runs returns, through
    /// the resolution procedure (a returned promise is adopted, a thenable assimilated); a throw
    /// rejects it; a `nil` callback passes the outcome on.
    ///
    /// - Parameters:
    ///   - queue: Where the callback runs.
    ///   - onFulfilled: Called with the value.
    ///   - onRejected: Called with the failure; it never sees what `onFulfilled` throws.
    public func then(
        on queue: DispatchQueue = Drain.mainQueue,
        onFulfilled: (@Sendable (PromiseValue) throws -> PromiseValue)?,
        onRejected: (@Sendable (any Error) throws -> PromiseValue)?
    ) -> Promise {
        let link = ResolvingLink(input: box, queue: queue, onFulfilled: onFulfilled, onRejected: onRejected)
        link.attach()
        return Promise(box: link)
    }
}

extension PromiseBox where Value == PromiseValue, Failure == any Error {
    /// The resolution procedure (Promises/A+ 2.3), in `drain` or the drain of this thread.
    @usableFromInline
    final func resolve(_ value: PromiseValue, in drain: UnsafeMutablePointer<Drain>?) {
        if let promise = value as? Promise<PromiseValue, any Error> {
            let adopted: Bool
            if let link = self as? AdoptingLink<PromiseValue, any Error, PromiseValue, any Error>, let drain {
                adopted = link.adopt(promise.box, in: drain)
            } else {
                adopted = follow(promise.box, in: drain)
            }
            // A promise resolved with itself, or with one that settles as it does (a cycle).
            if !adopted { complete(.rejected(SelfResolutionError()), in: drain) }
        } else if let thenable = value as? any Thenable {
            let call = thenable.thenOnce(
                resolvePromise: { value in self.resolve(value, in: nil) },
                rejectPromise: { reason in self.complete(.rejected(reason)) })
            if call == .thenIsNotAFunction { complete(.fulfilled(value), in: drain) }
        } else {
            complete(.fulfilled(value), in: drain)
        }
    }
}

/// The link of the untyped `then`: either callback, its result resolved through the procedure.
@usableFromInline
final class ResolvingLink: AdoptingLink<PromiseValue, any Error, PromiseValue, any Error>, @unchecked Sendable {
    // `@unchecked Sendable`: as `Link`; the callbacks are read and cleared only by `step`.
    @exclusivity(unchecked) @usableFromInline var onFulfilled: (@Sendable (PromiseValue) throws -> PromiseValue)?
    @exclusivity(unchecked) @usableFromInline var onRejected: (@Sendable (any Error) throws -> PromiseValue)?

    @usableFromInline
    init(
        input: PromiseBox<PromiseValue, any Error>, queue: DispatchQueue,
        onFulfilled: (@Sendable (PromiseValue) throws -> PromiseValue)?,
        onRejected: (@Sendable (any Error) throws -> PromiseValue)?
    ) {
        self.onFulfilled = onFulfilled
        self.onRejected = onRejected
        super.init(input: input, queue: queue) { node, operation, drain in
            let link = unsafeDowncast(node, to: ResolvingLink.self)
            guard operation == .run else { return link.destroyOutcome() }
            link.runStepOrAdoption(in: drain!) { outcome in link.step(outcome, in: drain!) }
        }
    }

    func step(_ outcome: InputOutcome, in drain: UnsafeMutablePointer<Drain>) {
        let onFulfilled = self.onFulfilled.take()
        let onRejected = self.onRejected.take()
        do {
            switch outcome {
            case .fulfilled(let value):
                guard let onFulfilled else {
                    complete(.fulfilled(value), in: drain)
                    return
                }
                resolve(try onFulfilled(value), in: drain)
            case .rejected(let reason):
                guard let onRejected else {
                    complete(.rejected(reason), in: drain)
                    return
                }
                resolve(try onRejected(reason), in: drain)
            case .cancelled:
                complete(.cancelled, in: drain)
            }
        } catch {
            complete(.rejected(error), in: drain)
        }
    }
}
