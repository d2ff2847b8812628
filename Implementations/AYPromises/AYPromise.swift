public import Dispatch
import PromiseRuntime
import Synchronization

/// Settles a promise from inside a work block: call it with a value, a promise, a thenable or an
/// error. Only the first call counts.
///
/// What it is called with decides the outcome, as for every AY block's return value: a promise
/// (of this design, or any `Thenable`) is adopted, an `Error` rejects, anything else (`nil`
/// included) fulfils.
public typealias AYResolve = @Sendable (PromiseValue) -> Void

/// A promise in the style of Alan Yeh's `AYPromise`: untyped values and chaining through
/// closure-valued properties.
///
/// The operators are properties that return something callable, the Swift form of the
/// original's Objective-C block properties (`promise.then(^(id value){ ... })`):
///
/// ```swift
/// AYPromise.withResolve { resolve in
///     fetchOrder { order, error in resolve(error ?? order) }
/// }
/// .then { order in pay(order) }            // returns an AYPromise: adopted
/// .then { receipt in check(receipt) }
/// .catch { error in log(error) }           // recovers: later thens run, later catches are skipped
/// .always { hideSpinner() }
/// ```
///
/// Values are dynamically typed (`PromiseValue`); what a block returns decides the next
/// promise: an ``AYPromise`` is adopted, any other `Thenable` is assimilated, an `Error` value
/// rejects, anything else (`nil` and `Void` included) fulfils, and a throw rejects. A block may
/// take the value or no argument at all. Read results with `try await promise.value` or
/// ``value(as:)``.
///
/// ## Threading
/// - `then`, `catch`, `always`, `thenPromise` and `thenDelay` run their blocks on the main queue;
///   `thenAsync` and `catchAsync` on a global queue; `thenOn(queue)` and `catchOn(queue)` on the
///   queue given. A block never runs on the caller's stack, even when the promise has already
///   settled.
/// - All state (the outcome and the piped handlers) is guarded by one lock per promise; a promise
///   settles once under it, takes its handlers out and runs them after releasing it, in a loop.
///   Any thread may pipe, settle or read at any time.
public final class AYPromise: Sendable {
    /// Guards the whole state machine: the outcome and the handlers piped while pending.
    private let machine: PromiseMutex<AYPromiseStateMachine>

    /// Whether a first-call callback (``resolveFirst(_:on:)``, ``rejectFirst(_:)``) has claimed
    /// this promise. Atomic, outside the lock: it decides which caller goes on to resolve, before
    /// any lock is taken. Here rather than in a gate object of its own, one allocation less per
    /// `withResolve`, `thenPromise` and `deferred`.
    private let resolutionClaimed = Atomic<Bool>(false)

    /// `false` once the promise has settled (stored after the lock has recorded the outcome), so
    /// that `deinit` skips the lock for a settled promise, which is nearly every promise.
    private let mayBePending: Atomic<Bool>

    #if DEBUG
        /// Where a pending promise was made and whom to tell if it is freed pending
        /// (``PendingPromiseLeakCheck``); debug builds only.
        private let leakTracker: PendingPromiseLeakTracker?
    #endif

    /// A pending promise.
    @usableFromInline
    package init(pending: ()) {
        machine = PromiseMutex(AYPromiseStateMachine())
        mayBePending = Atomic(true)
        #if DEBUG
            leakTracker = PendingPromiseLeakCheck.track()
        #endif
    }

    /// A promise settled with `outcome` from the start.
    @usableFromInline
    package init(settled outcome: AYOutcome) {
        machine = PromiseMutex(AYPromiseStateMachine(settled: outcome))
        mayBePending = Atomic(false)
        #if DEBUG
            leakTracker = nil
        #endif
    }

    deinit {
        guard mayBePending.load(ordering: .acquiring) else { return }
        guard let handlers = machine.withLock({ $0.abandon() }) else { return }
        #if DEBUG
            leakTracker?.reportGivenUp(self)
        #endif
        guard !handlers.isEmpty else { return }
        // The handlers of a pending promise hold the next links of its chain: freed here, a
        // dropped 100,000-link chain would be freed recursively and overflow the stack.
        releaseIteratively(consume handlers)
    }

    // MARK: - Inspecting

    /// The current state: pending, fulfilled with a value, or rejected with an error.
    ///
    /// A snapshot for logs and tests; to wait for the outcome use `try await promise.value` or
    /// chain a block.
    public var state: PromiseState {
        switch machine.withLock({ $0.outcome }) {
        case nil: return .pending
        case .success(let value): return .fulfilled(value)
        case .failure(let error): return .rejected(error)
        }
    }

    // MARK: - The primitives

    /// Settles the promise; only the first settle counts. The handlers run after the lock is
    /// released, in the order they were piped, on this thread, including those piped while they
    /// run (queued behind them by the machine and run here in a loop), so registration order
    /// holds whichever thread settles.
    @usableFromInline
    package func settle(_ outcome: AYOutcome) {
        let action = machine.withLock { $0.settle(outcome) }
        guard case .runHandlers(var handlers, let outcome) = action else { return }
        mayBePending.store(false, ordering: .releasing)
        while !handlers.isEmpty {
            handlers.forEach { $0.run(outcome) }  // a loop, never recursion
            guard let next = machine.withLock({ $0.nextHandlers() }) else { return }
            handlers = next
        }
    }

    /// Registers a handler for the outcome (the original's `pipe:`): stored while pending, called
    /// at once, on this thread, if the promise has settled. Handlers must only schedule work.
    @usableFromInline
    func pipe(_ handler: @escaping AYHandler) {
        let action = machine.withLock { $0.pipe(handler) }
        if case .runNow(let outcome) = action { handler(outcome) }
    }

    /// Makes the next promise of a chain (the original's `__pipe`): when this promise settles,
    /// `handle` runs on `queue` with the outcome and the next promise, which it must settle.
    ///
    /// `thenPromise` and the A+ adapter's `then` are this call plus what they do with the outcome;
    /// the block operators use ``chain(_:_:)``, the same with the handler written out. Even a
    /// rejection that an operator only passes on goes through `queue`: settling the next promise
    /// right in the handler would settle the whole rest of a chain recursively.
    package func chain(
        on queue: DispatchQueue,
        _ handle: @escaping @Sendable (AYOutcome, AYPromise) -> Void
    ) -> AYPromise {
        let next = AYPromise(pending: ())
        pipe { outcome in queue.async { handle(outcome, next) } }
        return next
    }

    /// Chains an operator's block (`then`, `catch`, `always`, ``thenDelay``, on any queue): the
    /// next promise, and one handler that hands this promise's outcome to `route.queue`, where the
    /// route decides whether `block` runs or the outcome passes on.
    ///
    /// The handler captures the route and the block themselves, so a link allocates the next
    /// promise and this handler, and, once the outcome arrives, GCD's block: nothing wraps the
    /// user's block. Inlinable, with the operators that call it, so that a caller specialises it
    /// for its block's type: unspecialised, every link would look up generic metadata while
    /// building and again in the dispatched callback.
    @inlinable
    func chain<Block: AYChainedBlock>(_ route: AYRoute<Block.Input>, _ block: Block) -> AYPromise {
        let next = AYPromise(pending: ())
        pipe { outcome in
            route.queue.async {
                switch route.input(outcome) {
                case .passOn:
                    next.settle(outcome)
                case .run(let input):
                    next.resolve(returnedBy: { try block.run(input) }, on: route.queue)
                case .runAfter(let seconds, let input):
                    route.queue.asyncAfter(deadline: .now() + seconds) {
                        next.resolve(returnedBy: { try block.run(input) }, on: route.queue)
                    }
                }
            }
        }
        return next
    }

    /// The resolution procedure: what every block's return value and every ``AYResolve`` call
    /// goes through.
    ///
    /// - An ``AYPromise`` is adopted: this promise settles as it does (forwarded through `queue`,
    ///   so a long run of adoptions never recurses). Resolving a promise with itself, or with one
    ///   that waits for it through the promises it adopted (``AdoptionCycle``), rejects with
    ///   ``AYPromiseError/cycle`` (the original leaves it pending forever).
    /// - Any other `Thenable` (a promise of another design, a foreign object) is assimilated:
    ///   its `then` is called once, asynchronously on `queue`, through `thenOnce`, and the value
    ///   it hands over is resolved again; a `PropertyThenable` whose `then` holds no function
    ///   fulfils with the thenable itself.
    /// - An `Error` value rejects.
    /// - Anything else fulfils; `nil` at any depth of optionals and `Void` fulfil with `nil`.
    package func resolve(_ value: PromiseValue, on queue: DispatchQueue) {
        switch AYResolution(value) {
        case .fulfil(let value):
            settle(.success(value))
        case .reject(let error):
            settle(.failure(error))
        case .adopt(let promise):
            // Itself, or a promise that waits for this one through the promises it adopted.
            let adopter = ObjectIdentifier(self)
            guard !AdoptionCycle.wouldClose(adopting: promise, by: adopter, next: { $0.followedPromise }) else {
                settle(.failure(AYPromiseError.cycle))
                return
            }
            machine.withLock { $0.follow(promise) }
            promise.pipe { outcome in queue.async { self.settle(outcome) } }
        case .assimilate(let thenable):
            assimilate(thenable, on: queue)
        }
    }

    /// Calls `thenable`'s `then` once, asynchronously on `queue`, and resolves this promise with
    /// what it hands over (Promises/A+ 2.3.3).
    func assimilate(_ thenable: any Thenable, on queue: DispatchQueue) {
        // Foreign code runs on a fresh stack: never inside the caller's critical sections, and a
        // long run of synchronous thenables does not grow the caller's stack.
        queue.async {
            let call = thenable.thenOnce(
                resolvePromise: { self.resolve($0, on: queue) },
                rejectPromise: { self.settle(.failure($0)) }
            )
            // A `then` property that holds no function makes the thenable a plain value.
            if call == .thenIsNotAFunction { self.settle(.success(thenable)) }
        }
    }

    /// The promise this one adopted, while this one is pending.
    private var followedPromise: AYPromise? {
        machine.withLock { $0.pendingFollowing }
    }

    /// Runs `block` and resolves this promise with what it returns; a throw rejects.
    @usableFromInline
    package func resolve(returnedBy block: () throws -> PromiseValue, on queue: DispatchQueue) {
        do {
            resolve(try block(), on: queue)
        } catch {
            settle(.failure(error))
        }
    }

    /// Resolves this promise if no ``resolveFirst(_:on:)`` or ``rejectFirst(_:)`` came first: the
    /// "only the first call counts" of ``AYResolve``, for every callback handed out for this
    /// promise (its resolve callback, and the rejection of a throw from the block that got it).
    package func resolveFirst(_ value: PromiseValue, on queue: DispatchQueue) {
        if claimResolution() { resolve(value, on: queue) }
    }

    /// Rejects this promise if no ``resolveFirst(_:on:)`` or ``rejectFirst(_:)`` came first.
    package func rejectFirst(_ error: any Error) {
        if claimResolution() { settle(.failure(error)) }
    }

    /// An ``AYResolve`` for this promise: the first call resolves it, later calls are ignored.
    ///
    /// For the main queue (`nil`) it captures only the promise, which holds the first-call flag, so
    /// the callback is the promise itself and costs no allocation. The main queue is `nil` rather
    /// than `DispatchQueue.main` because on Linux every read of `DispatchQueue.main` makes a new
    /// wrapper object, so no queue is ever identical to it.
    ///
    /// - Parameter queue: Where a thenable given to the callback is asked for its outcome; `nil`
    ///   for the main queue.
    func resolveCallback(on queue: DispatchQueue?) -> AYResolve {
        guard let queue else { return { value in self.resolveFirst(value, on: .main) } }
        return { value in self.resolveFirst(value, on: queue) }
    }

    /// Claims the right to resolve this promise through its first-call callbacks: `true` once.
    private func claimResolution() -> Bool {
        !resolutionClaimed.exchange(true, ordering: .acquiringAndReleasing)
    }
}
