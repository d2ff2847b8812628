public import Dispatch
public import PromiseRuntime
public import Synchronization

/// A promise in the style of google/promises' `FBLPromise`: GCD observers on a small state machine.
///
/// A promise is pending, then fulfilled with a value or rejected with an error, exactly once.
/// Two primitives carry every operator:
/// - ``observe(on:fulfill:reject:)`` registers callbacks that are dispatched onto a queue when the
///   promise settles (at once if it already has);
/// - ``chain(on:chainedFulfill:chainedReject:)`` observes this promise, runs a callback and hands
///   its result to a new promise's resolver.
///
/// ```swift
/// let user = FBLPromise<User>(on: .global()) { fulfill, reject in
///     api.fetchUser { result in
///         switch result {
///         case .success(let user): fulfill(user)
///         case .failure(let error): reject(error)
///         }
///     }
/// }
/// user.then { $0.name }
///     .then { print("Hello, \($0)") }
///     .catch { print("Failed: \($0)") }
/// ```
///
/// ## Threading
/// - Every callback runs asynchronously on the queue its operator was given (`on:`), by default
///   ``defaultQueue`` (the main queue unless changed), never on the caller's stack.
/// - State and observers are guarded by one lock per promise; the lock is released before any
///   observer runs.
/// - Every pending promise is counted in ``dispatchGroup`` until it settles or is freed, and
///   every callback is dispatched into it, so ``waitForPromises(timeout:)`` can wait for all
///   promise work in flight.
///
/// Work is eager: a promise made with a work block starts it at once; nothing can pause or cancel
/// it (that is what the QN design adds).
///
/// Not `final`: the promise `then` and `chain` return is a subclass that holds its step
/// (`FBLChainedPromise`). Every member is `final`, so no call goes through the class's table.
/// `@unchecked Sendable` because a non-final class cannot be checked: its state is `machine`,
/// which guards itself, and constants.
public class FBLPromise<Value: Sendable>: @unchecked Sendable {
    /// Called on the settling thread, outside the lock, with the outcome.
    @usableFromInline typealias Observer = @Sendable (Result<Value, any Error>) -> Void

    /// Guards the whole state machine: the outcome and the observers.
    @usableFromInline let machine: PromiseMutex<FBLPromiseStateMachine<Value>>

    /// `false` once the promise has settled (stored after the lock has recorded the outcome).
    ///
    /// `deinit` reads it to skip the lock for a settled promise, which is nearly every promise:
    /// a deinitializer of a generic class runs unspecialised, and taking the lock there would cost
    /// a generic-metadata lookup per freed promise.
    @usableFromInline let mayBePending: Atomic<Bool>

    #if DEBUG
        /// Where a pending promise was made and whom to tell if it is freed pending
        /// (``PendingPromiseLeakCheck``); debug builds only.
        @usableFromInline let leakTracker: PendingPromiseLeakTracker?
    #endif

    // MARK: - Creating promises

    /// Makes a pending promise, counted in ``dispatchGroup`` until it settles or is freed.
    ///
    /// Settle it with ``fulfill(_:)``, ``reject(_:)`` or ``resolve(_:on:)-(Value,_)``.
    @inlinable
    public static func pending() -> FBLPromise<Value> {
        FBLPromise(pending: ())
    }

    /// Makes a pending promise; the same as ``pending()`` (google/promises' `Promise()`).
    @inlinable
    public convenience init() {
        self.init(pending: ())
    }

    /// Makes a promise already settled with what `work` produces: fulfilled with the value, or
    /// rejected if `work` throws or the value is an error value (google/promises' rule; see
    /// ``resolve(_:on:)-(Value,_)`` for what counts as one).
    ///
    /// `work` is an autoclosure, as in google/promises, so a throwing expression rejects the
    /// promise instead of throwing at the call site:
    ///
    /// ```swift
    /// let config = FBLPromise<Config>(try loadConfig())   // rejected if loadConfig() throws
    /// ```
    ///
    /// - Parameter work: The value, evaluated at once on the caller's thread.
    @inlinable
    public init(_ work: @autoclosure () throws -> Value) {
        let outcome: Result<Value, any Error>
        do {
            let value = try work()
            outcome = Self.error(in: value).map { .failure($0) } ?? .success(value)
        } catch {
            outcome = .failure(error)
        }
        machine = PromiseMutex(FBLPromiseStateMachine(settled: outcome))
        mayBePending = Atomic(false)
        #if DEBUG
            leakTracker = nil
        #endif
    }

    /// Makes a promise already rejected with `error`.
    ///
    /// Disfavoured, so that `FBLPromise<SomeError>(someError)` is not ambiguous with
    /// `init(_:)` (the autoclosure one); that initializer rejects with an error value too.
    @inlinable @_disfavoredOverload
    public init(_ error: any Error) {
        machine = PromiseMutex(FBLPromiseStateMachine(settled: .failure(error)))
        mayBePending = Atomic(false)
        #if DEBUG
            leakTracker = nil
        #endif
    }

    @inlinable
    init(pending: ()) {
        machine = PromiseMutex(FBLPromiseStateMachine())
        mayBePending = Atomic(true)
        fblDispatchGroup.enter()
        #if DEBUG
            leakTracker = PendingPromiseLeakCheck.track()
        #endif
    }

    /// Makes a pending promise and runs `body` with it at once on `queue` (eager, as the original's
    /// `async` and `do`); a throw from `body` rejects.
    convenience init(on queue: DispatchQueue, running body: @escaping @Sendable (FBLPromise<Value>) throws -> Void) {
        self.init(pending: ())
        queue.async(group: fblDispatchGroup) {
            do {
                try body(self)
            } catch {
                self.reject(error)
            }
        }
    }

    deinit {
        guard mayBePending.load(ordering: .acquiring) else { return }
        guard let observers = machine.withLock({ $0.abandon() }) else { return }
        #if DEBUG
            leakTracker?.reportGivenUp(self)
        #endif
        // A promise freed while pending must still leave the group it entered, or
        // `waitForPromises` would wait for it forever.
        fblDispatchGroup.leave()
        // Its observers hold the next links of a pending chain: freed here, a dropped
        // 100,000-link chain would be freed recursively and overflow the stack.
        if !observers.isEmpty { releaseIteratively(consume observers) }
    }

    // MARK: - Settling

    /// Fulfils the promise with `value`; if `value` is an error value, rejects with it instead (see
    /// ``resolve(_:on:)-(Value,_)`` for what counts as one).
    ///
    /// Only the first settle counts: a later `fulfill`, `reject` or `resolve` is ignored.
    /// `value` is not inspected for promises or thenables; use ``resolve(_:on:)-(FBLPromise<Value>,_)`` to adopt one.
    @inlinable
    public final func fulfill(_ value: Value) {
        if let error = Self.error(in: value) {
            settle(.failure(error))
        } else {
            settle(.success(value))
        }
    }

    /// `value` as an error, if it is one that rejects (`objectiveCRejection(in:)`, google/promises'
    /// rule); no check for a type found plain before (``fblPlainTypes``).
    @inlinable
    static func error(in value: Value) -> (any Error)? {
        guard !fblPlainTypes.contains(type(of: value)) else { return nil }
        return objectiveCRejection(in: value)
    }

    /// Rejects the promise with `error`. Only the first settle counts.
    @inlinable
    public final func reject(_ error: any Error) {
        settle(.failure(error))
    }

    /// Resolves the promise with `value` through the resolution procedure.
    ///
    /// - An ``FBLPromise`` of the same type is adopted: this promise settles as it does. Resolving
    ///   a promise with itself rejects with ``PromiseError/cycle`` (Promises/A+ 2.3.1).
    /// - Any other `Thenable` (a promise of another design, or a foreign object) is assimilated:
    ///   its `then` is called once, on `queue`, and the first callback it calls wins.
    /// - An error value rejects: an `NSError`, or a value of an `Error` type that Foundation does
    ///   not bridge to an object of its own (google/promises' rule: a `String` made an `Error` for
    ///   `throw "message"` still fulfils); anything else fulfils.
    ///
    /// Only the first settle counts.
    ///
    /// - Parameters:
    ///   - value: The value, promise or thenable to resolve with.
    ///   - queue: Where an adopted promise is observed and a thenable's `then` is called.
    @inlinable
    public final func resolve(_ value: Value, on queue: DispatchQueue = defaultQueue) {
        // Most values are of a type found plain before: no cast at all (``fblPlainTypes``).
        if fblPlainTypes.contains(type(of: value)) {
            settle(.success(value))
        } else if let promise = value as? FBLPromise<Value> {
            resolve(promise, on: queue)
        } else if let thenable = value as? any Thenable, !Self.holdsThenables {
            resolve(thenable, on: queue)
        } else if let error = objectiveCRejection(in: value) {
            settle(.failure(error))
        } else {
            // Not when `Value` is a thenable type: its values were not asked whether they are
            // thenables, and a promise of another type must still assimilate them.
            if !Self.holdsThenables { fblPlainTypes.remember(type(of: value)) }
            settle(.success(value))
        }
    }

    /// Adopts `promise`: settles as it does. Resolving a promise with itself, or with a promise
    /// that (through the promises it adopted in turn) waits for this one, rejects with
    /// ``PromiseError/cycle``; see `AdoptionCycle` (PromiseRuntime) for what is detected.
    @inlinable
    public final func resolve(_ promise: FBLPromise<Value>, on queue: DispatchQueue = defaultQueue) {
        guard !AdoptionCycle.wouldClose(adopting: promise, by: ObjectIdentifier(self), next: { $0.followedPromise })
        else {
            reject(PromiseError.cycle)
            return
        }
        // Only the first: FBL observes every promise a pending promise is resolved with, and
        // the first to settle wins, so a later one is not what this promise waits for.
        machine.withLock { $0.follow(promise) }
        promise.observe(on: queue, fulfill: fulfill, reject: reject)
    }

    /// The promise this one adopted, while this one is pending.
    @usableFromInline
    final var followedPromise: FBLPromise<Value>? {
        // Only `resolve(_:on:)` records a followed promise, always one of this type.
        machine.withLock { $0.following }.map { unsafeDowncast($0, to: FBLPromise<Value>.self) }
    }

    /// Assimilates a thenable: calls its `then` once, asynchronously on `queue`, and settles with
    /// the first callback it calls. A value it resolves with goes through the resolution procedure
    /// again; a value that is not a `Value` rejects with ``PromiseError/typeMismatch(expected:actual:)``.
    /// A `PropertyThenable` whose `then` holds no function fulfils with the thenable itself. An FBL
    /// promise of another value type is observed on `queue` directly.
    public final func resolve(_ thenable: any Thenable, on queue: DispatchQueue = defaultQueue) {
        if let promise = thenable as? FBLPromise<Value> {
            resolve(promise, on: queue)
            return
        }
        if let promise = thenable as? any ErasedObservable {
            promise.observeErased(
                on: queue,
                fulfill: { value in self.resolve(dynamic: PromiseValue(handingOver: value), on: queue) },
                reject: reject
            )
            return
        }
        // Calling foreign code on a fresh stack keeps a long run of synchronous thenables from
        // growing the caller's stack, and never runs it inside the caller's critical sections.
        queue.async(group: fblDispatchGroup) {
            let call = thenable.thenOnce(
                resolvePromise: { value in self.resolve(dynamic: value, on: queue) },
                rejectPromise: { error in self.reject(error) }
            )
            // A `then` property that holds no function makes the thenable a plain value.
            if call == .thenIsNotAFunction { self.fulfill(dynamic: thenable) }
        }
    }

    /// The resolution procedure for a value of unknown type, as a thenable hands it over.
    final func resolve(dynamic value: PromiseValue, on queue: DispatchQueue) {
        if let promise = value as? FBLPromise<Value> {
            resolve(promise, on: queue)
        } else if Self.holdsThenables, let typed = value as? Value {
            fulfill(typed)
        } else if let thenable = value as? any Thenable {
            resolve(thenable, on: queue)
        } else {
            fulfill(dynamic: value)
        }
    }

    /// Fulfils with a value of unknown type that is not to be resolved again; a value that is not
    /// a `Value` rejects with ``PromiseError/typeMismatch(expected:actual:)``.
    final func fulfill(dynamic value: PromiseValue) {
        if let typed = value as? Value {
            fulfill(typed)
        } else {
            reject(PromiseError.typeMismatch(expected: "\(Value.self)", actual: Self.typeName(of: value)))
        }
    }

    /// Whether `Value` itself is a thenable type (a promise typed to hold, say, another design's
    /// promise). Such a promise holds thenables as values; only promises whose `Value` can merely
    /// *contain* a thenable (`Any`, `any Sendable`, `PromiseValue`) assimilate them.
    @inlinable
    static var holdsThenables: Bool { Value.self is any Thenable.Type }

    private static func typeName(of value: PromiseValue) -> String {
        guard let value else { return "nil" }
        return "\(type(of: value))"
    }

    @inlinable
    final func settle(_ result: Result<Value, any Error>) {
        let action = machine.withLock { $0.settle(result) }
        guard case .handOut(var observers, let outcome) = action else { return }
        mayBePending.store(false, ordering: .releasing)
        // Observers registered while these are called are queued behind them (the machine is
        // handing out) and called here next, in a loop: registration order holds whichever
        // thread settles, and no observer runs under the lock.
        if !observers.isEmpty {
            repeat {
                // A loop, not recursion: an observer that settles another promise only
                // schedules work, so deep chains do not grow the stack.
                observers.forEach { $0.run(outcome) }
                guard let next = machine.withLock({ $0.nextCallbacks() }) else { break }
                observers = next
            } while true
        }
        // Observers dispatch their callbacks into the group first; leaving only afterwards keeps
        // the group from looking empty while those callbacks are not yet queued.
        fblDispatchGroup.leave()
    }

    // MARK: - Inspecting

    /// Whether the promise has not settled yet.
    public final var isPending: Bool { machine.withLock { $0.isPending } }

    /// Whether the promise is fulfilled.
    public final var isFulfilled: Bool {
        if case .success = result { return true }
        return false
    }

    /// Whether the promise is rejected.
    public final var isRejected: Bool { error != nil }

    /// The rejection error, or `nil` while pending or when fulfilled.
    public final var error: (any Error)? {
        if case .failure(let error) = machine.withLock({ $0.result }) { return error }
        return nil
    }

    /// The outcome, or `nil` while pending: the synchronous way to inspect a promise.
    ///
    /// A promise of an optional type fulfilled with `nil` is `.success(nil)`, never confused with
    /// a pending promise. To wait for the value, use ``value``: `try await promise.value`.
    public final var result: Result<Value, any Error>? { machine.withLock { $0.result } }

    // MARK: - The two primitives

    /// Registers callbacks to be dispatched onto `queue` when the promise settles; if it already
    /// has, the matching callback is dispatched at once.
    ///
    /// Observers are notified in registration order, whichever thread settles the promise and
    /// whenever: one registered while another thread is settling it is queued behind the
    /// observers registered before it, so callbacks registered one after another on one queue are
    /// dispatched, and run, in that order (Promises/A+ 2.2.6). Each callback is dispatched into
    /// ``dispatchGroup``. Every operator is built on this method and ``chain(on:chainedFulfill:chainedReject:)``.
    ///
    /// - Parameters:
    ///   - queue: Where the callback runs.
    ///   - fulfill: Called with the value if the promise is fulfilled.
    ///   - reject: Called with the error if the promise is rejected.
    @inlinable
    public final func observe(
        on queue: DispatchQueue = defaultQueue,
        fulfill: @escaping @Sendable (Value) -> Void,
        reject: @escaping @Sendable (any Error) -> Void
    ) {
        addObserver { result in
            queue.async(group: fblDispatchGroup) {
                switch result {
                case .success(let value): fulfill(value)
                case .failure(let error): reject(error)
                }
            }
        }
    }

    /// Observes this promise and resolves a new promise with what a callback returns.
    ///
    /// When this promise settles, the matching callback runs on `queue`. What it returns decides
    /// the new promise: `.value` goes through the resolution procedure (a promise or thenable is
    /// adopted, an error value rejects, anything else fulfils), `.promise` is adopted, `.error`
    /// rejects; a thrown error rejects. Returning the new promise itself rejects it with
    /// ``PromiseError/cycle`` instead of leaving it pending forever, as the original did.
    ///
    /// - Parameters:
    ///   - queue: Where the callbacks run, and where an adopted promise is observed.
    ///   - chainedFulfill: Called with the value if this promise is fulfilled.
    ///   - chainedReject: Called with the error if this promise is rejected.
    /// - Returns: The new promise; it keeps itself alive through this promise's observer until it
    ///   settles.
    @inlinable
    public final func chain<Result: Sendable>(
        on queue: DispatchQueue = defaultQueue,
        chainedFulfill: @escaping @Sendable (Value) throws -> FBLPromise<Result>.Resolution,
        chainedReject: @escaping @Sendable (any Error) throws -> FBLPromise<Result>.Resolution
    ) -> FBLPromise<Result> {
        FBLChainedPromise.observing(self, on: queue, step: .chain(fulfill: chainedFulfill, reject: chainedReject))
    }

    /// What a chained callback hands to the new promise's resolver.
    public enum Resolution: Sendable {
        /// Resolve with a value: a promise or thenable is adopted, an `Error` rejects, anything
        /// else fulfils.
        case value(Value)
        /// Adopt this promise's outcome.
        case promise(FBLPromise<Value>)
        /// Reject with this error.
        case error(any Error)
    }

    @inlinable
    final func resolve(with resolution: Result<Resolution, any Error>, on queue: DispatchQueue) {
        switch resolution {
        case .success(.value(let value)): resolve(value, on: queue)
        case .success(.promise(let promise)): resolve(promise, on: queue)
        case .success(.error(let error)), .failure(let error): reject(error)
        }
    }

    /// Registers an observer that runs on the settling thread, outside the lock. Used where no
    /// queue hop is wanted: `try await promise.value` and ``awaitPromise(_:)``, which must not depend
    /// on any queue being serviced.
    @inlinable
    final func addObserver(_ observer: @escaping Observer) {
        let action = machine.withLock { $0.register(FBLObserverCallback(observer)) }
        if case .callNow(let result) = action { observer(result) }
    }
}

extension FBLPromise: CustomStringConvertible {
    /// The state and outcome, in google/promises' words: `Fulfilled: 42`, `Rejected: <error>` or
    /// `Pending: Int`.
    public var description: String {
        switch result {
        case .success(let value): return "Fulfilled: \(value)"
        case .failure(let error): return "Rejected: \(error)"
        case nil: return "Pending: \(Value.self)"
        }
    }
}
