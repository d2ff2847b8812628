public import Dispatch

/// A value that arrives later: fulfilled with a `Value`, rejected with a `Failure`, or cancelled,
/// exactly once.
///
/// Each operator (``map(on:_:)``, ``flatMap(on:_:)``, ``recover(on:_:)`` and the others) returns a
/// new promise whose callback runs on the queue it is given, once this one settles. Where
/// callbacks run is what the design is about: a callback for queue Q that becomes runnable while a
/// drain of Q runs on the thread (a callback on Q settled the promise it waits on) runs in that
/// drain, after the current callback returns, with no dispatch of its own; otherwise the
/// callbacks that one settle makes runnable on Q are dispatched as one batch (see
/// <doc:SchedulingContract>). A link (the new promise, its callback and what runs it) is one
/// object.
///
/// ```swift
/// func loadUser(id: String) -> Promise<User, APIError> {
///     Promise { resolver in api.fetchUser(id: id, completion: resolver.resolve) }
/// }
///
/// loadUser(id: "42")
///     .flatMap(on: .main) { user in loadAvatar(of: user) }
///     .map(on: .main) { avatar in avatar.image }
///     .whenComplete(on: .main) { outcome in show(outcome) }
/// ```
///
/// ## Threading
/// - Every callback runs on the queue its operator was given (the main queue by default), never
///   on the stack of the call that registered it or settled its promise (Promises/A+ 2.2.4).
///   The exceptions take no queue: cancellation handlers (``Resolver/onCancel(_:)``), and the
///   callbacks given to the `Thenable` requirement, which run where the promise settles.
/// - A promise's state is guarded by one lock, released before any callback runs.
/// - Callbacks registered on one promise for one queue run in the order they were registered.
///
/// ## Cancellation
/// ``cancel()`` settles a pending promise as ``Outcome/cancelled``: its callbacks that have not
/// run never will, and the promises it waits on are cancelled in turn when no one else waits for
/// them, up to the producer, whose ``Resolver/onCancel(_:)`` handlers run. An `async` caller that
/// awaits ``value`` and is cancelled withdraws the same way, and a promise made from `async` work
/// cancels its task.
public struct Promise<Value: Sendable, Failure: Error>: Sendable {
    /// The promise's storage, shared by every copy of the promise and its resolver.
    @usableFromInline let box: PromiseBox<Value, Failure>

    @inlinable
    init(box: PromiseBox<Value, Failure>) {
        self.box = box
    }

    /// How a promise settled.
    public enum Outcome {
        case fulfilled(Value)
        case rejected(Failure)
        /// Cancelled before it settled otherwise (``Promise/cancel()``).
        case cancelled
    }

    // MARK: Making promises

    /// Makes a pending promise and the resolver that settles it.
    ///
    /// ```swift
    /// let (promise, resolver) = Promise<Int, Never>.makePending()
    /// resolver.fulfill(42)
    /// ```
    ///
    /// - Returns: The promise, and its resolver; hand the resolver to the code that produces the
    ///   value.
    @inlinable
    public static func makePending() -> (promise: Promise, resolver: Resolver) {
        let box = PromiseBox<Value, Failure>()
        return (Promise(box: box), Resolver(box: box))
    }

    /// Makes a pending promise and hands its resolver to `body` at once, on the caller's thread.
    ///
    /// The usual way to wrap a completion-handler API:
    ///
    /// ```swift
    /// Promise<User, APIError> { resolver in api.fetchUser(id: id, completion: resolver.resolve) }
    /// ```
    ///
    /// - Parameter body: Starts the work and arranges for the resolver to be called once it ends.
    @inlinable
    public init(_ body: (Resolver) -> Void) {
        box = PromiseBox()
        body(Resolver(box: box))
    }

    /// Makes a promise fulfilled with `value`.
    @inlinable
    public init(value: Value) {
        box = PromiseBox(settled: .fulfilled(value))
    }

    /// Makes a promise rejected with `failure`.
    @inlinable
    public init(failure: Failure) {
        box = PromiseBox(settled: .rejected(failure))
    }

    /// Makes a promise settled with `result`.
    @inlinable
    public init(_ result: Result<Value, Failure>) {
        switch result {
        case .success(let value): box = PromiseBox(settled: .fulfilled(value))
        case .failure(let failure): box = PromiseBox(settled: .rejected(failure))
        }
    }

    /// Makes a promise of what `work` returns, run on `queue`; a throw rejects it.
    ///
    /// ```swift
    /// let parsed = Promise<Config, ParseError>(on: .global()) { try Config(parsing: data) }
    /// ```
    ///
    /// - Parameters:
    ///   - queue: Where `work` runs, asynchronously.
    ///   - work: Produces the value. It is not run if the promise is cancelled first.
    @inlinable
    public init(on queue: DispatchQueue, _ work: @escaping @Sendable () throws(Failure) -> Value) {
        let box = PromiseBox<Value, Failure>()
        self.box = box
        queue.async {
            guard box.isPending else { return }
            do throws(Failure) {
                box.complete(.fulfilled(try work()))
            } catch {
                box.complete(.rejected(error))
            }
        }
    }

    // MARK: Reading without waiting

    /// The outcome, or `nil` while the promise is pending.
    @inlinable
    public var currentOutcome: Outcome? { box.currentOutcome }

    /// Whether the promise has not settled yet.
    @inlinable
    public var isPending: Bool { box.isPending }

    // MARK: Cancelling

    /// Cancels the promise if it is pending: it settles as ``Outcome/cancelled``, its callbacks
    /// that have not run never will, and the promises it waits on are cancelled in turn where no
    /// one else waits for them.
    ///
    /// Does nothing to a settled promise. The cancellation handlers of the promises it cancels
    /// (``Resolver/onCancel(_:)``) run on the calling thread before `cancel()` returns; the
    /// callbacks that learn of it run on their queues.
    @inlinable
    public func cancel() {
        CancellationWalk.cancel(box)
    }
}

extension Promise.Outcome: Sendable {}

extension Promise.Outcome: Equatable where Value: Equatable, Failure: Equatable {}

extension Promise.Outcome {
    /// The outcome as a `Result`, or `nil` if cancelled.
    @inlinable
    public var result: Result<Value, Failure>? {
        switch self {
        case .fulfilled(let value): return .success(value)
        case .rejected(let failure): return .failure(failure)
        case .cancelled: return nil
        }
    }
}

extension Promise: CustomStringConvertible {
    /// `Promise<Int, Never>(pending)`, `Promise<Int, Never>(fulfilled: 42)`, and so on.
    public var description: String {
        let state: String
        switch currentOutcome {
        case nil: state = "pending"
        case .fulfilled(let value)?: state = "fulfilled: \(value)"
        case .rejected(let failure)?: state = "rejected: \(failure)"
        case .cancelled?: state = "cancelled"
        }
        return "Promise<\(Value.self), \(Failure.self)>(\(state))"
    }
}

extension Promise {
    /// The object that holds the promise's state, for tests that watch its identity and lifetime.
    package var storage: AnyObject { box }
}
