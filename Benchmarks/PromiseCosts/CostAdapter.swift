public import Dispatch

/// What the cost runners need from a promise library: make a pending promise, settle it, chain
/// on it, observe it. The five standard operations (``StandardOperation``) are written once,
/// against this, in ``CountedOperation/standard(_:budgets:queue:)``.
/// A library with an `all` conforms to ``CostAdapterWithAll`` instead, which adds the "all input"
/// operation.
///
/// Values are `Int`s, and callbacks run on a serial `DispatchQueue`: what a chain of an app's
/// promises does, and what raw GCD does in ``RawGCD``, so that the ratio between the two means
/// something. An adapter calls the library's own API and adds nothing, since what it does is
/// counted as the library's (see ``CountedOperation`` for what each runner counts).
///
/// ```swift
/// import PromiseCosts
/// import MyPromise
///
/// enum MyCostAdapter: CostAdapter {
///     typealias IntPromise = MyPromise<Int>
///     static let name = "MyPromise"
///     static func makePending() -> (promise: MyPromise<Int>, resolver: MyPromise<Int>) {
///         let promise = MyPromise<Int>()
///         return (promise, promise)
///     }
///     static func fulfill(_ resolver: MyPromise<Int>, with value: Int) { resolver.fulfill(value) }
///     static func reject(_ resolver: MyPromise<Int>, with error: any Error) { resolver.reject(error) }
///     static func then(
///         _ promise: MyPromise<Int>, on queue: DispatchQueue, _ transform: @escaping @Sendable (Int) -> Int
///     ) -> MyPromise<Int> {
///         promise.then(on: queue, transform)
///     }
///     static func whenSettled(
///         _ promise: MyPromise<Int>, on queue: DispatchQueue, _ callback: @escaping @Sendable () -> Void
///     ) {
///         promise.always(on: queue, callback)
///     }
/// }
/// ```
public protocol CostAdapter: SendableMetatype {
    /// The library's promise of an `Int` (named so that it does not hide a library type called
    /// `Promise`).
    associatedtype IntPromise
    /// What settles a pending ``IntPromise``: the promise itself, or a resolver the library hands
    /// out beside it.
    associatedtype IntResolver

    /// The library's name, as the tables show it: the first word of each operation's name.
    static var name: String { get }

    /// A pending promise, and what settles it.
    static func makePending() -> (promise: IntPromise, resolver: IntResolver)

    /// Fulfils the promise of `resolver` with `value`.
    static func fulfill(_ resolver: IntResolver, with value: Int)

    /// Rejects the promise of `resolver` with `error`.
    static func reject(_ resolver: IntResolver, with error: any Error)

    /// A new promise, fulfilled with `transform(value)` on `queue` once `promise` fulfils, and
    /// rejected with its error, without calling `transform`, once it rejects: one link of a chain.
    static func then(
        _ promise: IntPromise, on queue: DispatchQueue, _ transform: @escaping @Sendable (Int) -> Int
    )
        -> IntPromise

    /// Calls `callback` on `queue` once `promise` settles, either way: an observer.
    static func whenSettled(_ promise: IntPromise, on queue: DispatchQueue, _ callback: @escaping @Sendable () -> Void)
}

/// A ``CostAdapter`` for a library with an `all`, which adds the "all input" operation.
///
/// ```swift
/// extension MyCostAdapter: CostAdapterWithAll {
///     static func whenAllFulfilled(
///         _ promises: [MyPromise<Int>], on queue: DispatchQueue, _ callback: @escaping @Sendable () -> Void
///     ) {
///         MyPromise.all(promises, on: queue).always(on: queue, callback)
///     }
/// }
/// ```
public protocol CostAdapterWithAll: CostAdapter {
    /// Calls `callback` on `queue` once every one of `promises` has fulfilled: the library's `all`,
    /// observed. Whatever the `all` returns (an array of the values, a promise of another type),
    /// only its settling is observed.
    static func whenAllFulfilled(
        _ promises: [IntPromise], on queue: DispatchQueue, _ callback: @escaping @Sendable () -> Void)
}

/// The five operations every library is measured by, and what one unit of each is.
public enum StandardOperation: String, CaseIterable, Sendable {
    /// One more link of a chain whose root is fulfilled: made, registered, settled, its callback
    /// run, freed. Raw GCD's equivalent is one block that dispatches the next.
    case chainLink = "chain link"
    /// One more link of a chain whose root is rejected: the rejection passes the link without
    /// its callback running. Compared with raw GCD's chain link.
    case errorLink = "error link"
    /// One more observer of one promise, registered before it settles. Raw GCD's equivalent is
    /// one block dispatched per observer.
    case fanOutObserver = "fan-out observer"
    /// One more pending promise with one `then` registered. Allocations count it while it waits:
    /// what a promise costs the heap while nothing has happened yet (its bytes are the pending
    /// size); instructions, its whole life.
    case pendingWithOneThen = "pending promise with one then"
    /// One more input of an `all` over pending promises. Allocations count the `all` and its
    /// registration on the inputs; instructions, the input's whole life (made, registered,
    /// fulfilled, its value delivered, freed).
    case allInput = "all input"
}

extension CountedOperation {
    /// The standard operations of the library `adapter` drives, each with its budget from
    /// `budgets` (none where `budgets` has no entry: the runners then print the count, to be
    /// written in).
    ///
    /// - Parameters:
    ///   - adapter: The library's adapter.
    ///   - budgets: What one unit of each operation may cost.
    ///   - queue: The serial queue the callbacks run on; one of its own by default.
    /// - Returns: The operations, "all input" only for a ``CostAdapterWithAll``.
    ///
    /// Inlinable, so that the operations are specialised for the adapter where they are made:
    /// generic code run unspecialised would add its own instructions to every unit.
    @inlinable
    public static func standard<Adapter: CostAdapter>(
        _ adapter: Adapter.Type, budgets: [StandardOperation: Budget] = [:],
        queue: DispatchQueue = DispatchQueue(label: "PromiseCosts.standard")
    ) -> [CountedOperation] {
        let name = Adapter.name
        func budget(_ operation: StandardOperation) -> Budget { budgets[operation] ?? Budget() }
        var measurements = [
            CountedOperation.pendingWithOneThen(library: name, budget: budget(.pendingWithOneThen), queue: queue) {
                done in
                let (promise, resolver) = Adapter.makePending()
                let then = Adapter.then(promise, on: queue) { value in
                    done.tick()
                    return value
                }
                return ((promise, resolver), then)
            } settle: { root in
                Adapter.fulfill(root.1, with: 1)
            },
            CountedOperation(library: name, operation: StandardOperation.chainLink.rawValue, budget: budget(.chainLink))
            {
                units, start, stop in
                chain(Adapter.self, units, start, stop, queue: queue, rejecting: false)
            },
            CountedOperation(library: name, operation: StandardOperation.errorLink.rawValue, budget: budget(.errorLink))
            {
                units, start, stop in
                chain(Adapter.self, units, start, stop, queue: queue, rejecting: true)
            },
            CountedOperation(
                library: name, operation: StandardOperation.fanOutObserver.rawValue, budget: budget(.fanOutObserver)
            ) { units, start, stop in
                let done = Countdown(units)
                start()
                let (promise, resolver) = Adapter.makePending()
                for _ in 0..<units { Adapter.whenSettled(promise, on: queue) { done.tick() } }
                queue.holding { Adapter.fulfill(resolver, with: 1) }
                done.wait()
                stop()
            },
        ]
        if let withAll = Adapter.self as? any CostAdapterWithAll.Type {
            measurements.append(allInput(withAll, budget: budget(.allInput), queue: queue))
        }
        return measurements
    }

    /// One more input of an `all` over pending promises.
    @inlinable
    static func allInput<Adapter: CostAdapterWithAll>(
        _: Adapter.Type, budget: Budget, queue: DispatchQueue
    )
        -> CountedOperation
    {
        CountedOperation(library: Adapter.name, operation: StandardOperation.allInput.rawValue, budget: budget) {
            units, start, stop in
            let done = Countdown(1)
            let inputs = (0..<units).map { _ in Adapter.makePending() }
            start()
            Adapter.whenAllFulfilled(inputs.map(\.promise), on: queue) { done.tick() }
            stop()
            queue.holding { for (index, input) in inputs.enumerated() { Adapter.fulfill(input.resolver, with: index) } }
            done.wait()
        }
    }

    /// A chain of `units` links on a pending root that is fulfilled, or rejected (every link then
    /// passes the rejection on without running its callback); the end observed either way.
    @inlinable
    static func chain<Adapter: CostAdapter>(
        _: Adapter.Type, _ units: Int, _ start: () -> Void, _ stop: () -> Void, queue: DispatchQueue, rejecting: Bool
    ) {
        let done = Countdown(1)
        start()
        let (root, resolver) = Adapter.makePending()
        var last = root
        for _ in 0..<units { last = Adapter.then(last, on: queue) { $0 + 1 } }
        Adapter.whenSettled(last, on: queue) { done.tick() }
        if rejecting { Adapter.reject(resolver, with: CostError()) } else { Adapter.fulfill(resolver, with: 0) }
        done.wait()
        stop()
    }
}

/// Raw GCD doing what a promise's operation does, without a promise: the baseline of the
/// instruction table's ratios, counted on the same machine in the same run.
public enum RawGCD {
    static let queue = DispatchQueue(label: "PromiseCosts.gcd")

    /// The operations raw GCD has a counterpart for.
    static let operationNames: Set<String> = [
        StandardOperation.chainLink.rawValue, StandardOperation.fanOutObserver.rawValue,
    ]

    /// Raw GCD's chain link (one block that dispatches the next, as each link's callback settles
    /// the next link) and fan-out observer (one block dispatched per observer), with `budgets`.
    public static func operations(budgets: [StandardOperation: Budget] = [:]) -> [CountedOperation] {
        [
            CountedOperation(
                library: "GCD", operation: StandardOperation.chainLink.rawValue,
                budget: budgets[.chainLink] ?? Budget()
            ) { units, start, stop in
                let done = Countdown(1)
                start()
                @Sendable func hop(_ remaining: Int, _ value: Int) {
                    guard remaining > 0 else { return done.tick() }
                    queue.async { hop(remaining - 1, value + 1) }
                }
                hop(units, 0)
                done.wait()
                stop()
            },
            CountedOperation(
                library: "GCD", operation: StandardOperation.fanOutObserver.rawValue,
                budget: budgets[.fanOutObserver] ?? Budget()
            ) { units, start, stop in
                let done = Countdown(units)
                start()
                queue.holding { for _ in 0..<units { queue.async { done.tick() } } }
                done.wait()
                stop()
            },
        ]
    }
}
