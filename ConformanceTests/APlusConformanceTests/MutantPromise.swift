import APlusSuite
import DesignRegistry
import Dispatch
import PromiseRuntime
import SharedPromiseTypes
import Synchronization
import TestSupport

/// The defects a ``MutantPromise`` can be built with, each one a way real promise libraries break
/// Promises/A+ (the catalog's mutation probes, §6).
enum Defect: Sendable {
    /// A correct promise: the control group.
    case none
    /// Calls back synchronously, inside `then` or inside the settling call.
    case synchronousCallbacks
    /// Fulfils with a thenable instead of assimilating it.
    case ignoresThenables
    /// Has no state guard: a later settle overwrites the outcome and calls the callbacks again.
    case settlesTwice
    /// Adopts itself instead of rejecting with the cycle error.
    case noCycleCheck
    /// Calls a thenable's `then` without the first-call-wins guard.
    case noCalledGuard
    /// Fulfils with the value a thenable hands over instead of resolving with it again.
    case noRecursion
    /// Rejects when a thenable's `then` throws, even after it called back.
    case throwAfterCallRejects
    /// Calls a thenable's `then` twice (the Tier A form of reading `x.then` twice).
    case callsThenTwice
    /// Writes `then(f, r)` as `then(f)` followed by a recovery with `r`, so `r` sees what `f`
    /// throws (the likeliest adapter mistake); in one hop, so that nothing else changes. Only a
    /// throw is modelled: a rejected promise that `f` returns still rejects the next promise.
    case recoversOwnThrow
    /// Writes `then(f, r)` as a recovery with `r` followed by `then(f)`, so `f` sees what `r`
    /// returned (the mirror mistake); in one hop.
    case fulfilsWhatItRecovered
    /// Rejects with an error of its own when the reason is a thenable (as a library that
    /// assimilates or wraps thenable reasons does); shows the suite hands such reasons over.
    case replacesThenableReasons
    /// Runs callbacks asynchronously, but on a global queue instead of the main queue.
    case callsBackOffMain
    /// Reads a `then` property twice: once to check that it holds a function, again to call it.
    case readsThenTwice
    /// Takes a `then` property whose read throws for one that holds no function (`try?`), so it
    /// fulfils with the thenable instead of rejecting with what the read threw.
    case swallowsThrowingThenRead
    /// Settles when an atomic load finds it pending, then marks it settled with a store: a real
    /// check-then-act race, a few nanoseconds wide, with nothing held open.
    case loadThenStoreSettle
    /// Settles when a check under the lock finds it pending, then settles under a second
    /// acquisition of the lock: a real check-then-act race, as wide as a lock's release and
    /// acquisition, with nothing held open.
    case checkThenSettleUnderTwoLocks
    /// Hands out the callbacks registered before the settle in reverse order.
    case reversesCallbacks
    /// Lets a second settle overwrite the outcome without calling anyone: only a `then`
    /// registered afterwards sees the second outcome.
    case overwritesSilently
    /// Runs every handler registered so far again whenever a `then` is registered on the settled
    /// promise.
    case rerunsHandlersOnLateThen
    /// Hands out the callbacks registered before a settle from another thread after the settle
    /// returned, so that a `then` registered meanwhile, which sees the outcome, queues its
    /// callback before them (2.2.6 across threads). The hand-out waits for such a `then` (at
    /// most 2 s), so that the mutant fails every time, where a real one fails now and then.
    case handsOutLate
}

/// Selects a defect at the type level, so each mutant is its own promise type.
protocol DefectSelector: Sendable {
    static var defect: Defect { get }
}

enum Correct: DefectSelector { static let defect = Defect.none }
enum Synchronous: DefectSelector { static let defect = Defect.synchronousCallbacks }
enum IgnoresThenables: DefectSelector { static let defect = Defect.ignoresThenables }
enum SettlesTwice: DefectSelector { static let defect = Defect.settlesTwice }
enum NoCycleCheck: DefectSelector { static let defect = Defect.noCycleCheck }
enum NoCalledGuard: DefectSelector { static let defect = Defect.noCalledGuard }
enum NoRecursion: DefectSelector { static let defect = Defect.noRecursion }
enum ThrowAfterCallRejects: DefectSelector { static let defect = Defect.throwAfterCallRejects }
enum CallsThenTwice: DefectSelector { static let defect = Defect.callsThenTwice }
enum RecoversOwnThrow: DefectSelector { static let defect = Defect.recoversOwnThrow }
enum FulfilsWhatItRecovered: DefectSelector { static let defect = Defect.fulfilsWhatItRecovered }
enum ReplacesThenableReasons: DefectSelector { static let defect = Defect.replacesThenableReasons }
enum CallsBackOffMain: DefectSelector { static let defect = Defect.callsBackOffMain }
enum ReadsThenTwice: DefectSelector { static let defect = Defect.readsThenTwice }
enum SwallowsThrowingThenRead: DefectSelector { static let defect = Defect.swallowsThrowingThenRead }
enum LoadThenStoreSettle: DefectSelector { static let defect = Defect.loadThenStoreSettle }
enum CheckThenSettleUnderTwoLocks: DefectSelector { static let defect = Defect.checkThenSettleUnderTwoLocks }
enum ReversesCallbacks: DefectSelector { static let defect = Defect.reversesCallbacks }
enum OverwritesSilently: DefectSelector { static let defect = Defect.overwritesSilently }
enum RerunsHandlersOnLateThen: DefectSelector { static let defect = Defect.rerunsHandlersOnLateThen }
enum HandsOutLate: DefectSelector { static let defect = Defect.handsOutLate }
/// The same defect as ``RecoversOwnThrow`` under a selector of its own, for the runner's test in
/// another suite: `breakCycles()` takes every mutant of a selector, so two suites that run at the
/// same time must not share one.
enum RecoversOwnThrowForRunner: DefectSelector { static let defect = Defect.recoversOwnThrow }

struct CycleError: Error {}

/// A small reference promise for proving that the suite can fail: correct with ``Correct``, and
/// broken in exactly one way with any other selector. Test-only.
final class MutantPromise<Selector: DefectSelector>: Thenable, CallbackDropping {
    typealias Callback = @Sendable (Result<PromiseValue, any Error>) -> Void

    private struct State {
        var result: Result<PromiseValue, any Error>?
        var callbacks: [Callback] = []
    }

    /// Guards the outcome and the registered callbacks.
    private let state = PromiseMutex(State())
    private var defect: Defect { Selector.defect }
    /// Whether a settle has passed the check, for ``Defect/loadThenStoreSettle``.
    private let settled = Atomic<Bool>(false)
    /// Signalled by a `then` on the settled promise, which ``Defect/handsOutLate`` waits for.
    private let lateThen = DispatchSemaphore(value: 0)

    init() {
        MutantTracker.shared.track(self, as: Selector.self)
    }

    /// Breaks the cycles the broken mutants leave once a run of cases is over: every mutant of
    /// this selector forgets its callbacks, and the tracker lets go of it. A mutant keeps its
    /// callbacks after settling, and one that never settles (it waits for itself) keeps them for
    /// ever; a callback can hold the promise it belongs to, so without this those fixtures would
    /// never be freed. Call it only when no case of this selector is running any more.
    static func breakCycles() {
        for mutant in MutantTracker.shared.takeAll(Selector.self) { mutant.dropCallbacks() }
    }

    func dropCallbacks() {
        // Freed after the lock: a callback may hold promises whose teardown takes their locks.
        let dropped = state.withLock { state in
            defer { state.callbacks = [] }
            return state.callbacks
        }
        withExtendedLifetime(dropped) {}
    }

    static func deferred() -> APlusDeferred<MutantPromise> {
        let promise = MutantPromise()
        return APlusDeferred(promise: promise, resolve: promise.resolve, reject: promise.reject)
    }

    static func resolved(_ value: PromiseValue) -> MutantPromise {
        let promise = MutantPromise()
        promise.resolve(value)
        return promise
    }

    static func rejected(_ reason: any Error) -> MutantPromise {
        let promise = MutantPromise()
        promise.reject(reason)
        return promise
    }

    var currentState: PromiseState {
        switch state.withLock({ $0.result }) {
        case nil: return .pending
        case .success(let value): return .fulfilled(value)
        case .failure(let error): return .rejected(error)
        }
    }

    static func isCycleError(_ error: any Error) -> Bool { error is CycleError }

    func resolve(_ value: PromiseValue) {
        if let promise = value as? MutantPromise, promise === self, defect != .noCycleCheck {
            reject(CycleError())
        } else if let thenable = value as? any Thenable, defect != .ignoresThenables {
            DispatchQueue.main.async { self.assimilate(thenable) }
        } else {
            settle(.success(value))
        }
    }

    private func assimilate(_ thenable: any Thenable) {
        switch defect {
        case .noCalledGuard:
            do {
                try thenable.then(resolvePromise: resolve, rejectPromise: reject)
            } catch {
                reject(error)
            }
        case .noRecursion:
            callOnce(thenable, resolvePromise: { self.settle(.success($0)) })
        case .throwAfterCallRejects:
            let gate = FirstCallGate()
            do {
                try thenable.then(
                    resolvePromise: { if gate.claim() { self.resolve($0) } },
                    rejectPromise: { if gate.claim() { self.reject($0) } }
                )
            } catch {
                reject(error)
            }
        case .callsThenTwice:
            callOnce(thenable, resolvePromise: resolve)
            _ = thenable.thenOnce(resolvePromise: { _ in }, rejectPromise: { _ in })
        case .readsThenTwice:
            if let property = thenable as? any PropertyThenable { _ = try? property.then }
            callOnce(thenable, resolvePromise: resolve)
        case .swallowsThrowingThenRead:
            guard let property = thenable as? any PropertyThenable else {
                return callOnce(thenable, resolvePromise: resolve)
            }
            guard let function = try? property.then else { return settle(.success(thenable)) }
            let gate = FirstCallGate()
            do {
                try function({ if gate.claim() { self.resolve($0) } }, { if gate.claim() { self.reject($0) } })
            } catch {
                if gate.claim() { reject(error) }
            }
        case .none, .synchronousCallbacks, .ignoresThenables, .settlesTwice, .noCycleCheck, .recoversOwnThrow,
            .fulfilsWhatItRecovered, .replacesThenableReasons, .callsBackOffMain, .overwritesSilently,
            .rerunsHandlersOnLateThen, .handsOutLate, .loadThenStoreSettle, .checkThenSettleUnderTwoLocks,
            .reversesCallbacks:
            callOnce(thenable, resolvePromise: resolve)
        }
    }

    /// The correct assimilation, except for what `resolvePromise` does with the value handed over.
    private func callOnce(_ thenable: any Thenable, resolvePromise: @escaping @Sendable (PromiseValue) -> Void) {
        if thenable.thenOnce(resolvePromise: resolvePromise, rejectPromise: reject) == .thenIsNotAFunction {
            settle(.success(thenable))
        }
    }

    func reject(_ reason: any Error) {
        if defect == .replacesThenableReasons, reason is any Thenable { return settle(.failure(CycleError())) }
        settle(.failure(reason))
    }

    private func settle(_ result: Result<PromiseValue, any Error>) {
        if defect == .loadThenStoreSettle {
            guard !settled.load(ordering: .acquiring) else { return }
            settled.store(true, ordering: .releasing)
            return settleAfterTheCheck(result)
        }
        if defect == .checkThenSettleUnderTwoLocks {
            guard state.withLock({ $0.result == nil }) else { return }
            return settleAfterTheCheck(result)
        }
        let callbacks: [Callback]? = state.withLock { state in
            if state.result != nil && defect != .settlesTwice {
                if defect == .overwritesSilently { state.result = result }
                return nil
            }
            state.result = result
            guard defect == .synchronousCallbacks || defect == .handsOutLate else {
                // A callback only queues its handler, so it runs under the lock: a `then` from
                // another thread, which sees the outcome only after the lock, queues its handler
                // after these (2.2.6 across threads).
                let inOrder = defect == .reversesCallbacks ? state.callbacks.reversed() : state.callbacks
                inOrder.forEach { $0(result) }
                return nil
            }
            return state.callbacks
        }
        guard let callbacks else { return }
        if defect == .handsOutLate && !MainQueue.isCurrent {
            DispatchQueue.global().async {
                _ = self.lateThen.wait(timeout: .now() + 2)
                callbacks.forEach { $0(result) }
            }
        } else {
            callbacks.forEach { $0(result) }
        }
    }

    /// The second step of a settle in two: stores the outcome and hands out the callbacks,
    /// whatever a settle that passed the same check meanwhile stored.
    private func settleAfterTheCheck(_ result: Result<PromiseValue, any Error>) {
        let callbacks = state.withLock { state in
            state.result = result
            return state.callbacks
        }
        callbacks.forEach { $0(result) }
    }

    private func subscribe(_ callback: @escaping Callback) {
        let (result, registered) = state.withLock { state in
            state.callbacks.append(callback)
            return (state.result, state.callbacks)
        }
        guard let result else { return }
        // Queued after the lock: callbacks of the same thread queue in the order of its `then`s,
        // and a settle that handed out the earlier ones did so under the lock, before this.
        if defect == .rerunsHandlersOnLateThen {
            for earlier in registered.dropLast() { earlier(result) }
        }
        callback(result)
        // After this callback is queued, so that the late hand-out always comes after it.
        if defect == .handsOutLate { lateThen.signal() }
    }

    func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) {
        _ = then(
            onFulfilled: { value in
                resolvePromise(value)
                return nil
            },
            onRejected: { reason in
                rejectPromise(reason)
                return nil
            }
        )
    }

    func then(
        onFulfilled: (@Sendable (PromiseValue) throws -> PromiseValue)?,
        onRejected: (@Sendable (any Error) throws -> PromiseValue)?
    ) -> MutantPromise {
        let next = MutantPromise()
        let synchronous = defect == .synchronousCallbacks
        let callsBackOffMain = defect == .callsBackOffMain
        let recoversOwnThrow = defect == .recoversOwnThrow && onRejected != nil
        let fulfilsWhatItRecovered = defect == .fulfilsWhatItRecovered && onFulfilled != nil
        subscribe { result in
            let run: @Sendable () -> Void = {
                do {
                    switch result {
                    case .success(let value) where recoversOwnThrow:
                        // `then(f)` followed by a recovery with `r`, in one hop: `r` sees `f`'s throw.
                        do {
                            next.resolve(try onFulfilled.map { try $0(value) } ?? value)
                        } catch {
                            next.resolve(try onRejected!(error))
                        }
                    case .success(let value):
                        next.resolve(try onFulfilled.map { try $0(value) } ?? value)
                    case .failure(let error) where fulfilsWhatItRecovered:
                        // A recovery with `r` followed by `then(f)`, in one hop: `f` sees what `r`
                        // returned (or the error itself when there is no `r`).
                        let recovered = try onRejected.map { try $0(error) }
                        if let recovered { next.resolve(try onFulfilled!(recovered)) } else { next.reject(error) }
                    case .failure(let error):
                        if let onRejected { next.resolve(try onRejected(error)) } else { next.reject(error) }
                    }
                } catch {
                    next.reject(error)
                }
            }
            if synchronous {
                run()
            } else if callsBackOffMain {
                DispatchQueue.global().async(execute: run)
            } else {
                DispatchQueue.main.async(execute: run)
            }
        }
        return next
    }
}

/// A mutant, as the tracker keeps it.
protocol CallbackDropping: AnyObject, Sendable {
    /// Forgets the registered callbacks (breaking any cycle through them).
    func dropCallbacks()
}

/// Every ``MutantPromise`` made, by selector, until ``MutantPromise/breakCycles()`` takes them.
///
/// Held strongly: a weak reference would give each mutant a side table, which LeakSanitizer
/// reports as leaked when the mutant outlives its last weak reference (the object refers to its
/// side table only through a tagged pointer that the scanner does not follow).
final class MutantTracker: Sendable {
    static let shared = MutantTracker()

    /// Guards the mutants, by selector.
    private let mutants = PromiseMutex<[ObjectIdentifier: [any CallbackDropping]]>([:])

    func track(_ mutant: any CallbackDropping, as selector: any DefectSelector.Type) {
        mutants.withLock { $0[ObjectIdentifier(selector), default: []].append(mutant) }
    }

    func takeAll(_ selector: any DefectSelector.Type) -> [any CallbackDropping] {
        mutants.withLock { $0.removeValue(forKey: ObjectIdentifier(selector)) ?? [] }
    }
}

/// The mutant's adapter to the suite, as an outside library writes one: every requirement forwards
/// to the mutant, and the suite's foreign thenables are handed over as the designs' adapters do.
enum MutantAdapter<Selector: DefectSelector>: APlusAdapter {
    static func deferred() -> APlusDeferred<MutantPromise<Selector>> { MutantPromise<Selector>.deferred() }

    static func resolved(_ value: APlusValue) -> MutantPromise<Selector> { MutantPromise<Selector>.resolved(value) }

    static func rejected(_ reason: any Error) -> MutantPromise<Selector> { MutantPromise<Selector>.rejected(reason) }

    static func then(
        _ promise: MutantPromise<Selector>,
        onFulfilled: (@Sendable (APlusValue) throws -> APlusValue)?,
        onRejected: (@Sendable (any Error) throws -> APlusValue)?
    ) -> MutantPromise<Selector> {
        promise.then(onFulfilled: onFulfilled, onRejected: onRejected)
    }

    static func thenable(_ foreign: any APlusThenable) -> APlusValue { handingOver(foreign) }
    static func propertyThenable(_ foreign: any APlusPropertyThenable) -> APlusValue { handingOver(foreign) }

    static func isCycleError(_ error: any Error) -> Bool { MutantPromise<Selector>.isCycleError(error) }
}
