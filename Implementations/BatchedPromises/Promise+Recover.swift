public import Dispatch
import PromiseRuntime

extension Promise {
    /// A promise fulfilled with this promise's value, or with what `transform` makes of its
    /// failure, called on `queue`; a throw rejects it with the new failure type, and a
    /// cancellation passes on without calling `transform`.
    ///
    /// ```swift
    /// let avatar = loadAvatar(of: user).recover(on: .main) { _ in Avatar.placeholder }   // Promise<Avatar, Never>
    /// ```
    ///
    /// - Parameters:
    ///   - queue: Where `transform` runs (the main queue by default).
    ///   - transform: Turns the failure into a value, or throws a failure of its own type.
    @inlinable
    public func recover<NewFailure: Error>(
        on queue: DispatchQueue = Drain.mainQueue,
        _ transform: @escaping @Sendable (Failure) throws(NewFailure) -> Value
    ) -> Promise<Value, NewFailure> {
        let link = RecoverLink(input: box, queue: queue, transform: transform)
        link.attach()
        return Promise<Value, NewFailure>(box: link)
    }

    /// A promise fulfilled with this promise's value, or settled as the promise `transform`
    /// returns for its failure, called on `queue`; a cancellation passes on.
    ///
    /// ```swift
    /// let avatar = loadAvatar(from: primary).recover(on: .main) { _ in loadAvatar(from: mirror) }
    /// ```
    ///
    /// A callback that returns the promise `recover` returned would make it wait for itself: it is
    /// rejected with ``SelfResolutionError`` when `NewFailure` can hold one, and the program stops
    /// with that message otherwise (as ``Promise/Resolver/resolve(_:)-(Promise)`` does).
    @inlinable
    public func recover<NewFailure: Error>(
        on queue: DispatchQueue = Drain.mainQueue,
        _ transform: @escaping @Sendable (Failure) -> Promise<Value, NewFailure>
    ) -> Promise<Value, NewFailure> {
        let link = FlatRecoverLink(input: box, queue: queue, transform: transform)
        link.attach()
        return Promise<Value, NewFailure>(box: link)
    }
}

/// The link of ``Promise/recover(on:_:)-(_,(Failure)->Value)``.
@usableFromInline
final class RecoverLink<Value: Sendable, InputFailure: Error, Failure: Error>:
    Link<Value, InputFailure, Value, Failure>, @unchecked Sendable
{
    // `@unchecked Sendable`: as `Link`; `transform` is read and cleared only by `step`.
    @exclusivity(unchecked) @usableFromInline var transform: (@Sendable (InputFailure) throws(Failure) -> Value)?

    @inlinable
    init(
        input: PromiseBox<Value, InputFailure>, queue: DispatchQueue,
        transform: @escaping @Sendable (InputFailure) throws(Failure) -> Value
    ) {
        self.transform = transform
        super.init(input: input, queue: queue) { node, operation, drain in
            let link = unsafeDowncast(node, to: RecoverLink.self)
            guard operation == .run else { return link.destroyOutcome() }
            link.runStep { outcome in link.step(outcome, in: drain!) }
        }
    }

    @inlinable
    final func step(_ outcome: InputOutcome, in drain: UnsafeMutablePointer<Drain>) {
        let transform = self.transform.take()
        switch outcome {
        case .fulfilled(let value): complete(.fulfilled(value), in: drain)
        case .rejected(let failure):
            do throws(Failure) {
                complete(.fulfilled(try transform!(failure)), in: drain)
            } catch {
                complete(.rejected(error), in: drain)
            }
        case .cancelled: complete(.cancelled, in: drain)
        }
    }
}

/// The link of ``Promise/recover(on:_:)-(_,(Failure)->Promise<Value,NewFailure>)``.
@usableFromInline
final class FlatRecoverLink<Value: Sendable, InputFailure: Error, Failure: Error>:
    AdoptingLink<Value, InputFailure, Value, Failure>, @unchecked Sendable
{
    // `@unchecked Sendable`: as `Link`; `transform` is read and cleared only by `step`.
    @exclusivity(unchecked) @usableFromInline var transform: (@Sendable (InputFailure) -> Promise<Value, Failure>)?

    @inlinable
    init(
        input: PromiseBox<Value, InputFailure>, queue: DispatchQueue,
        transform: @escaping @Sendable (InputFailure) -> Promise<Value, Failure>
    ) {
        self.transform = transform
        super.init(input: input, queue: queue) { node, operation, drain in
            let link = unsafeDowncast(node, to: FlatRecoverLink.self)
            guard operation == .run else { return link.destroyOutcome() }
            link.runStepOrAdoption(in: drain!) { outcome in link.step(outcome, in: drain!) }
        }
    }

    @inlinable
    final func step(_ outcome: InputOutcome, in drain: UnsafeMutablePointer<Drain>) {
        let transform = self.transform.take()
        switch outcome {
        case .fulfilled(let value): complete(.fulfilled(value), in: drain)
        case .rejected(let failure):
            let promise = transform!(failure)
            if !adopt(promise.box, in: drain) {
                // The callback returned the promise recover returned: it would wait for itself.
                complete(.rejected(misuse(SelfResolutionError(), as: Failure.self)), in: drain)
            }
        case .cancelled: complete(.cancelled, in: drain)
        }
    }
}
