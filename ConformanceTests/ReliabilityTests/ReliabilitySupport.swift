import APlusSuite
import DesignRegistry
import Dispatch
import PromiseRuntime
import SharedPromiseTypes
import TestSupport

// Helpers for the generic reliability tests: every test drives a design through its adapter to the
// Promises/A+ suite (`Design.adapter`), so a design added to `Design` gets them all.

/// An outcome reduced to something comparable: the tests fulfil with `Int`s and reject with
/// `TestError`s.
enum Outcome: Equatable, Sendable, CustomStringConvertible {
    case fulfilled(Int)
    case rejected(Int)
    case other(String)

    init(value: PromiseValue) {
        if let value = value as? Int {
            self = .fulfilled(value)
        } else {
            self = .other("fulfilled with \(String(describing: value))")
        }
    }

    init(error: any Error) {
        if let error = error as? TestError {
            self = .rejected(error.code)
        } else {
            self = .other("rejected with \(error)")
        }
    }

    /// The outcome of a settled state; nil while pending.
    init?(_ state: PromiseState) {
        switch state {
        case .pending: return nil
        case .fulfilled(let value): self.init(value: value)
        case .rejected(let error): self.init(error: error)
        }
    }

    var description: String {
        switch self {
        case .fulfilled(let value): return "fulfilled(\(value))"
        case .rejected(let code): return "rejected(\(code))"
        case .other(let text): return text
        }
    }
}

extension APlusAdapter {
    /// The design whose adapter this is.
    static var design: Design {
        guard let design = Design.allCases.first(where: { ObjectIdentifier($0.adapter) == ObjectIdentifier(Self.self) })
        else { preconditionFailure("\(Self.self) is not the adapter of a registered design") }
        return design
    }

    /// The state of `promise` now, read through the registry without waiting.
    static func currentState(of promise: PromiseUnderTest) -> PromiseState {
        guard let state = design.state(of: promise) else {
            preconditionFailure("\(design)'s registry cannot read the state of a \(type(of: promise))")
        }
        return state
    }

    /// The object that holds `promise`'s state (the promise itself in the designs whose promise
    /// is a class), through the registry.
    static func storage(of promise: PromiseUnderTest) -> AnyObject {
        guard let storage = design.storage(of: promise) else {
            preconditionFailure("\(design)'s registry cannot name the storage of a \(type(of: promise))")
        }
        return storage
    }

    /// A weak reference to `promise`'s storage, to see it freed.
    static func weakReference(to promise: PromiseUnderTest) -> Weak<AnyObject> {
        Weak(storage(of: promise))
    }

    /// The identity of `promise`: its storage's.
    static func identity(of promise: PromiseUnderTest) -> ObjectIdentifier {
        ObjectIdentifier(storage(of: promise))
    }

    /// Attaches an observer through the adapter's `then` (so it runs where the design runs the
    /// suite's callbacks: the main queue for all four).
    static func observe(_ promise: PromiseUnderTest, _ record: @escaping @Sendable (Outcome) -> Void) {
        _ = then(
            promise,
            onFulfilled: { value in
                record(Outcome(value: value))
                return nil
            },
            onRejected: { error in
                record(Outcome(error: error))
                return nil
            }
        )
    }

    /// Chains `count` links on `promise`, each `then(onFulfilled:onRejected: nil)` on the one
    /// before, and returns the last. `eachLink` sees every link as it is made (to watch its
    /// lifetime or identity); only the last is kept.
    static func chained(
        _ promise: PromiseUnderTest,
        _ count: Int,
        onFulfilled: @escaping @Sendable (PromiseValue) throws -> PromiseValue = { $0 },
        eachLink: (PromiseUnderTest) -> Void = { _ in }
    ) -> PromiseUnderTest {
        var tail = promise
        for _ in 0..<count {
            tail = then(tail, onFulfilled: onFulfilled, onRejected: nil)
            eachLink(tail)
        }
        return tail
    }

    /// Waits (with a timeout) for `promise` to settle and returns its outcome.
    static func settledOutcome(
        _ promise: PromiseUnderTest, timeout: Duration = defaultTestTimeout
    ) async throws
        -> Outcome
    {
        switch try await settledResult(promise, timeout: timeout) {
        case .success(let value): return Outcome(value: value)
        case .failure(let error): return Outcome(error: error)
        }
    }

    /// The value, or the error thrown, once `promise` settles (with the heavy tests' timeout).
    static func settledValue(
        _ promise: PromiseUnderTest, timeout: Duration = heavyTimeout
    ) async throws
        -> PromiseValue
    {
        try await settledResult(promise, timeout: timeout).get()
    }

    /// Waits (with a timeout) for `promise` to settle and returns the value or reason exactly as
    /// its `then` callbacks received it.
    static func settledResult(
        _ promise: PromiseUnderTest, timeout: Duration = defaultTestTimeout
    ) async throws
        -> Result<PromiseValue, any Error>
    {
        try await awaitCompletion("a promise to settle", timeout: timeout) { complete in
            _ = then(
                promise,
                onFulfilled: { value in
                    complete(.success(.success(value)))
                    return nil
                },
                onRejected: { error in
                    complete(.success(.failure(error)))
                    return nil
                }
            )
        }
    }
}

/// Counts calls down to zero and then calls the waiter once; counts past zero too, so that an
/// extra call is seen.
final class Countdown: Sendable {
    private struct State {
        var remaining: Int
        var waiter: (@Sendable () -> Void)?
    }

    private let state: PromiseMutex<State>

    init(_ expected: Int) { state = PromiseMutex(State(remaining: expected)) }

    func tick() {
        let waiter = state.withLock { state -> (@Sendable () -> Void)? in
            state.remaining -= 1
            guard state.remaining == 0 else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?()
    }

    /// How many calls are still expected; negative after extra calls.
    var remaining: Int { state.withLock { $0.remaining } }

    /// Waits (with a timeout) until every expected call came.
    func wait(_ what: String, timeout: Duration = defaultTestTimeout) async throws {
        try await waitUntil(what, timeout: timeout) { done in
            let now = state.withLock { state -> Bool in
                if state.remaining <= 0 { return true }
                state.waiter = done
                return false
            }
            if now { done() }
        }
    }
}

/// `depth` pending promises, each resolved with the next (the outermost with the second, ...,
/// the innermost with `value`); returns the outermost.
///
/// - Parameter innermostFirst: Resolve from the innermost promise outwards, so that every
///   adoption finds the promise it adopts already following the rest of the nest (the longest
///   walks for a cycle check), instead of from the outermost inwards.
func nestedAdoptions<A: APlusAdapter>(_: A.Type, depth: Int, innermostFirst: Bool, value: Int) -> A.PromiseUnderTest {
    let deferreds = (0..<depth).map { _ in A.deferred() }
    let order = innermostFirst ? Array((0..<(depth - 1)).reversed()) : Array(0..<(depth - 1))
    for index in order { deferreds[index].resolve(deferreds[index + 1].promise) }
    deferreds[depth - 1].resolve(value)
    return deferreds[0].promise
}

/// Waits until the main queue has run everything queued on it so far (one hop), so that a
/// callback queued twice shows up before a test checks counts.
func drainMainQueue() async throws {
    try await waitUntil("a main-queue hop") { done in DispatchQueue.main.async { done() } }
}

/// A generous timeout for the heavy tests: a 100,000-step run shares two cores with the rest of
/// the suite, and is 5 to 20 times slower under a sanitizer.
let heavyTimeout: Duration = longTimeout(.seconds(300))
