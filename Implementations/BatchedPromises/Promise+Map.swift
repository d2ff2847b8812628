public import Dispatch

extension Promise {
    /// A promise of `transform`'s result, called with this promise's value on `queue`; a throw
    /// rejects it, and a rejection or a cancellation passes on without calling `transform`.
    ///
    /// ```swift
    /// let name = loadUser(id: "42").map(on: .main) { user in user.name }
    /// ```
    ///
    /// - Parameters:
    ///   - queue: Where `transform` runs (the main queue by default). In a drain of `queue`
    ///     already, it runs there after the current callback, with no dispatch.
    ///   - transform: Maps the value.
    /// - Returns: The new promise: one object, which holds `transform` until it has run.
    @inlinable
    public func map<NewValue: Sendable>(
        on queue: DispatchQueue = Drain.mainQueue,
        _ transform: @escaping @Sendable (Value) throws(Failure) -> NewValue
    ) -> Promise<NewValue, Failure> {
        let link = MapLink(input: box, queue: queue, transform: transform)
        link.attach()
        return Promise<NewValue, Failure>(box: link)
    }

    /// ``map(on:_:)`` under the name Promises/A+ gives it: a promise of what `transform` returns.
    @inlinable
    @discardableResult
    public func then<NewValue: Sendable>(
        on queue: DispatchQueue = Drain.mainQueue,
        _ transform: @escaping @Sendable (Value) throws(Failure) -> NewValue
    ) -> Promise<NewValue, Failure> {
        map(on: queue, transform)
    }
}

/// The link of ``Promise/map(on:_:)``.
@usableFromInline
final class MapLink<Input: Sendable, Value: Sendable, Failure: Error>:
    Link<Input, Failure, Value, Failure>, @unchecked Sendable
{
    // `@unchecked Sendable`: as `Link`; `transform` is read and cleared only by the step.
    @exclusivity(unchecked) @usableFromInline var transform: (@Sendable (Input) throws(Failure) -> Value)?

    @inlinable
    init(
        input: PromiseBox<Input, Failure>, queue: DispatchQueue,
        transform: @escaping @Sendable (Input) throws(Failure) -> Value
    ) {
        self.transform = transform
        super.init(input: input, queue: queue) { node, operation, drain in
            let link = unsafeDowncast(node, to: MapLink.self)
            guard operation == .run else { return link.destroyOutcome() }
            link.runStep { outcome in link.step(outcome, in: drain!) }
        }
    }

    @inlinable
    final func step(_ outcome: InputOutcome, in drain: UnsafeMutablePointer<Drain>) {
        let transform = self.transform.take()
        switch outcome {
        case .fulfilled(let value):
            do throws(Failure) {
                complete(.fulfilled(try transform!(value)), in: drain)
            } catch {
                complete(.rejected(error), in: drain)
            }
        case .rejected(let failure): complete(.rejected(failure), in: drain)
        case .cancelled: complete(.cancelled, in: drain)
        }
    }
}
