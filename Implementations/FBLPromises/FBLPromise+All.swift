public import Dispatch
public import PromiseRuntime
import Synchronization

/// Waits for every promise to be fulfilled and fulfils with their values in input order; rejects
/// with the first error as soon as any promise is rejected.
///
/// An empty input fulfils with `[]` at once.
///
/// Each input's outcome is observed on `queue`. Unlike the original, which rescans every input
/// each time one is fulfilled (quadratic), this counts down, so 100,000 inputs cost 100,000 steps.
///
/// ```swift
/// all(downloads).then { images in show(images) }
/// ```
///
/// - Parameters:
///   - queue: Where the inputs are observed.
///   - promises: The promises to wait for.
/// - Returns: A promise of every value, in input order.
@inlinable
public func all<Value: Sendable, Promises: Sequence<FBLPromise<Value>>>(
    on queue: DispatchQueue = FBLPromise<Value>.defaultQueue,
    _ promises: Promises
) -> FBLPromise<[Value]> {
    let inputs = Array(promises)
    return gatherAll(on: queue, count: inputs.count, finish: { $0 }) { index, fulfill, reject in
        inputs[index].observe(on: queue, fulfill: fulfill, reject: reject)
    }
}

/// Variadic form of ``all(on:_:)-(_,Promises)``.
///
/// With two to four promises the tuple forms below win, even when the types are the same
/// (`all(a, b)` is an `FBLPromise<(Int, Int)>`); pass an array, or give the result type, to get
/// `[Value]`. This form is disfavoured so that the call is not ambiguous (in google/promises it
/// is, with the same two overloads).
@_disfavoredOverload
public func all<Value: Sendable>(
    on queue: DispatchQueue = FBLPromise<Value>.defaultQueue,
    _ promises: FBLPromise<Value>...
) -> FBLPromise<[Value]> {
    all(on: queue, promises)
}

/// Waits for two promises of different types; rejects with the first error.
public func all<A: Sendable, B: Sendable>(
    on queue: DispatchQueue = FBLPromise<A>.defaultQueue,
    _ a: FBLPromise<A>,
    _ b: FBLPromise<B>
) -> FBLPromise<(A, B)> {
    let inputs = [a.erased, b.erased]
    return gatherAll(on: queue, count: 2, finish: { ($0[0] as! A, $0[1] as! B) }) { index, fulfill, reject in
        inputs[index](queue, fulfill, reject)
    }
}

/// Waits for three promises of different types; rejects with the first error.
public func all<A: Sendable, B: Sendable, C: Sendable>(
    on queue: DispatchQueue = FBLPromise<A>.defaultQueue,
    _ a: FBLPromise<A>,
    _ b: FBLPromise<B>,
    _ c: FBLPromise<C>
) -> FBLPromise<(A, B, C)> {
    let inputs = [a.erased, b.erased, c.erased]
    return gatherAll(on: queue, count: 3, finish: { ($0[0] as! A, $0[1] as! B, $0[2] as! C) }) {
        index, fulfill, reject in
        inputs[index](queue, fulfill, reject)
    }
}

/// Waits for four promises of different types; rejects with the first error.
public func all<A: Sendable, B: Sendable, C: Sendable, D: Sendable>(
    on queue: DispatchQueue = FBLPromise<A>.defaultQueue,
    _ a: FBLPromise<A>,
    _ b: FBLPromise<B>,
    _ c: FBLPromise<C>,
    _ d: FBLPromise<D>
) -> FBLPromise<(A, B, C, D)> {
    let inputs = [a.erased, b.erased, c.erased, d.erased]
    return gatherAll(
        on: queue,
        count: 4,
        finish: { ($0[0] as! A, $0[1] as! B, $0[2] as! C, $0[3] as! D) }
    ) { index, fulfill, reject in
        inputs[index](queue, fulfill, reject)
    }
}

/// The countdown behind every `all`: fulfils with `finish(values)` once all `count` inputs are
/// fulfilled, rejects with the first rejection.
@inlinable
func gatherAll<Element: Sendable, Output: Sendable>(
    on queue: DispatchQueue,
    count: Int,
    finish: @escaping @Sendable ([Element]) -> Output,
    observe: (Int, @escaping @Sendable (Element) -> Void, @escaping @Sendable (any Error) -> Void) -> Void
) -> FBLPromise<Output> {
    guard count > 0 else { return FBLPromise(finish([])) }
    let combined = FBLPromise<Output>.pending()
    let collector = Collector<Element>(count: count)
    for index in 0..<count {
        observe(
            index,
            { value in
                if let values = collector.store(value, at: index) { combined.fulfill(finish(values)) }
            },
            combined.reject
        )
    }
    return combined
}

/// Slots for the inputs' outcomes and how many are still missing.
@usableFromInline
final class Collector<Element: Sendable>: Sendable {
    @usableFromInline
    struct Slots {
        @usableFromInline var values: [Element?]
        @usableFromInline var missing: Int

        @inlinable
        init(values: [Element?], missing: Int) {
            self.values = values
            self.missing = missing
        }
    }

    /// Guards the slots and the count of missing ones.
    @usableFromInline let slots: PromiseMutex<Slots>

    @inlinable
    init(count: Int) {
        slots = PromiseMutex(Slots(values: Array(repeating: nil, count: count), missing: count))
    }

    /// Stores one outcome; returns every outcome, in input order, once the last one arrives.
    @inlinable
    func store(_ value: Element, at index: Int) -> [Element]? {
        slots.withLock { slots in
            precondition(slots.values[index] == nil, "An input settled twice")
            slots.values[index] = value
            slots.missing -= 1
            guard slots.missing == 0 else { return nil }
            return slots.values.map { $0! }
        }
    }
}
