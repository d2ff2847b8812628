public import Dispatch

extension FBLPromise {
    /// What ``reduce(on:_:_:)`` runs for each item (google/promises' `Reducer`).
    public typealias Reducer<Element> = @Sendable (Value, Element) throws -> FBLPromise<Value>

    /// Folds `items` into this promise's value one step at a time: each step waits for the
    /// previous one, and the first rejection ends the fold.
    ///
    /// ```swift
    /// FBLPromise("").reduce(["a", "b", "c"]) { partial, next in FBLPromise(partial + next) }
    /// // fulfils with "abc"
    /// ```
    ///
    /// - Parameters:
    ///   - queue: Where `reduction` runs.
    ///   - items: The items to fold in, in order.
    ///   - reduction: Combines the value so far with the next item.
    /// - Returns: A promise of the final value (this promise's value for empty `items`).
    @discardableResult
    public func reduce<Items: Sequence>(
        on queue: DispatchQueue = defaultQueue,
        _ items: Items,
        _ reduction: @escaping Reducer<Items.Element>
    ) -> FBLPromise<Value> where Items.Element: Sendable {
        items.reduce(self) { partial, item in
            partial.then(on: queue) { value in try reduction(value, item) }
        }
    }

    /// Variadic form of ``reduce(on:_:_:)``.
    @discardableResult
    public func reduce<Element: Sendable>(
        on queue: DispatchQueue = defaultQueue,
        _ items: Element...,
        combine reduction: @escaping Reducer<Element>
    ) -> FBLPromise<Value> {
        reduce(on: queue, items, reduction)
    }
}
