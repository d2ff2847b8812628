public import Dispatch
import Foundation

/// The outcome of one input of ``any(on:_:)-(_,Promises)``: its value or its error.
public enum Maybe<Value: Sendable>: Sendable {
    /// The input was fulfilled with this value.
    case value(Value)
    /// The input was rejected with this error.
    case error(any Error)

    /// Wraps a value.
    public init(_ value: Value) { self = .value(value) }

    /// Wraps an error.
    public init(_ error: any Error) { self = .error(error) }

    /// The value, or `nil` for an error.
    public var value: Value? {
        if case .value(let value) = self { return value }
        return nil
    }

    /// The error, or `nil` for a value.
    public var error: (any Error)? {
        if case .error(let error) = self { return error }
        return nil
    }
}

extension Maybe: Equatable where Value: Equatable {
    /// Two values are equal if the values are. Two errors are equal if they are of one `Equatable`
    /// type and `==`; otherwise if they are equal as `NSError`s (same domain, code and user info),
    /// as google/promises compares every error. (As `NSError`s, two values of one Swift error
    /// struct have the same domain and code, so that alone would call them equal.) A `Maybe` of
    /// an optional type and arrays of `Maybe` compare through this too.
    public static func == (lhs: Maybe, rhs: Maybe) -> Bool {
        switch (lhs, rhs) {
        case (.value(let lhs), .value(let rhs)): return lhs == rhs
        case (.error(let lhs), .error(let rhs)):
            // Through `Any`: `any Error` casts to `any Equatable` always, bridged to `NSError`.
            if let equatable = (lhs as Any) as? any Equatable { return isEqual(equatable, rhs) }
            return (lhs as NSError).isEqual(rhs as NSError)
        default: return false
        }
    }
}

/// Whether `rhs` is of `lhs`'s type and equal to it.
private func isEqual<Left: Equatable>(_ lhs: Left, _ rhs: any Error) -> Bool {
    (rhs as? Left) == lhs
}

/// Waits for every promise to settle, fulfilled or rejected, and fulfils with each outcome in
/// input order; rejects (with the error of the last one to be rejected) only when every input was
/// rejected.
///
/// An empty input fulfils with `[]` at once.
///
/// - Parameters:
///   - queue: Where the inputs are observed.
///   - promises: The promises to wait for.
/// - Returns: A promise of every outcome, in input order.
public func any<Value: Sendable, Promises: Sequence<FBLPromise<Value>>>(
    on queue: DispatchQueue = FBLPromise<Value>.defaultQueue,
    _ promises: Promises
) -> FBLPromise<[Maybe<Value>]> {
    let inputs = Array(promises)
    return gatherAny(on: queue, count: inputs.count, finish: { $0 }) { index, report in
        inputs[index].observe(on: queue, fulfill: { report(.value($0)) }, reject: { report(.error($0)) })
    }
}

/// Variadic form of ``any(on:_:)-(_,Promises)``.
///
/// With two or three promises the tuple forms below win, even when the types are the same; pass
/// an array, or give the result type, to get `[Maybe<Value>]`. Disfavoured, as the variadic
/// `all`, so that `any(a, b)` is not ambiguous.
@_disfavoredOverload
public func any<Value: Sendable>(
    on queue: DispatchQueue = FBLPromise<Value>.defaultQueue,
    _ promises: FBLPromise<Value>...
) -> FBLPromise<[Maybe<Value>]> {
    any(on: queue, promises)
}

/// Waits for two promises of different types to settle.
public func any<A: Sendable, B: Sendable>(
    on queue: DispatchQueue = FBLPromise<A>.defaultQueue,
    _ a: FBLPromise<A>,
    _ b: FBLPromise<B>
) -> FBLPromise<(Maybe<A>, Maybe<B>)> {
    let inputs = [a.erased, b.erased]
    return gatherAny(on: queue, count: 2, finish: { (typed($0[0]), typed($0[1])) }) { index, report in
        inputs[index](queue, { report(.value($0)) }, { report(.error($0)) })
    }
}

/// Waits for three promises of different types to settle.
public func any<A: Sendable, B: Sendable, C: Sendable>(
    on queue: DispatchQueue = FBLPromise<A>.defaultQueue,
    _ a: FBLPromise<A>,
    _ b: FBLPromise<B>,
    _ c: FBLPromise<C>
) -> FBLPromise<(Maybe<A>, Maybe<B>, Maybe<C>)> {
    let inputs = [a.erased, b.erased, c.erased]
    return gatherAny(on: queue, count: 3, finish: { (typed($0[0]), typed($0[1]), typed($0[2])) }) {
        index, report in
        inputs[index](queue, { report(.value($0)) }, { report(.error($0)) })
    }
}

/// Restores the type of an erased outcome; the combiners only erase and restore the same type.
private func typed<Value: Sendable>(_ outcome: Maybe<any Sendable>) -> Maybe<Value> {
    switch outcome {
    case .value(let value): return .value(value as! Value)
    case .error(let error): return .error(error)
    }
}

/// The countdown behind every `any`: settles once all `count` inputs have settled.
private func gatherAny<Element: Sendable, Output: Sendable>(
    on queue: DispatchQueue,
    count: Int,
    finish: @escaping @Sendable ([Maybe<Element>]) -> Output,
    observe: (Int, @escaping @Sendable (Maybe<Element>) -> Void) -> Void
) -> FBLPromise<Output> {
    guard count > 0 else { return FBLPromise(finish([])) }
    let combined = FBLPromise<Output>.pending()
    let collector = Collector<Maybe<Element>>(count: count)
    for index in 0..<count {
        observe(index) { outcome in
            guard let outcomes = collector.store(outcome, at: index) else { return }
            if outcomes.allSatisfy({ $0.error != nil }), case .error(let last) = outcome {
                // Every input failed: reject with the error of the last one to settle.
                combined.reject(last)
            } else {
                combined.fulfill(finish(outcomes))
            }
        }
    }
    return combined
}
