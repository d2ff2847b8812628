/// A value a promise is resolved or fulfilled with: any sendable value, or `nil` (JavaScript's
/// `undefined`).
///
/// The suite is untyped, as Promises/A+ is: values of every kind go through the same promise, and
/// a value may be a plain value, a promise of the library under test or a foreign thenable.
public typealias APlusValue = (any Sendable)?

/// A foreign thenable: an object with a `then` method that is not a promise of the library under
/// test, the `x` of Promises/A+ 2.3.3.
///
/// The suite makes these (they count their `then` calls, call back twice, throw, and so on) and
/// hands each one to the library through ``APlusAdapter/thenable(_:)``, so the library can
/// recognise it the way it recognises thenables of its own.
///
/// A foreign thenable is not trusted: its `then` may call `resolvePromise` or `rejectPromise`
/// synchronously or later, call both, call either several times, or throw before or after calling
/// back. Promises/A+ 2.3.3.3 says what a library must make of each.
public protocol APlusThenable: Sendable {
    /// Registers the two functions that settle the promise adopting this thenable.
    ///
    /// - Parameters:
    ///   - resolvePromise: Resolves the adopting promise with `y`, which may itself be a promise or
    ///     a thenable (Promises/A+ 2.3.3.3.1).
    ///   - rejectPromise: Rejects the adopting promise (2.3.3.3.2).
    /// - Throws: Anything; a throw before either function was called rejects the adopting promise
    ///   (2.3.3.3.4).
    func then(
        resolvePromise: @escaping @Sendable (APlusValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) throws
}

/// The function an ``APlusPropertyThenable``'s `then` property holds.
public typealias APlusThenFunction =
    @Sendable (
        _ resolvePromise: @escaping @Sendable (APlusValue) -> Void,
        _ rejectPromise: @escaping @Sendable (any Error) -> Void
    ) throws -> Void

/// A foreign thenable whose `then` is a property, as JavaScript's is: reading it may throw, may
/// give no function, and may give a different function on each read. The cases of
/// ``APlusSuite/Options/thenProperties`` make these.
///
/// A library whose resolution procedure reads `then` once (Promises/A+ 2.3.3.1), rejects with
/// what the read threw (2.3.3.2), calls the function it read, and fulfils with the object itself
/// when the property holds no function (2.3.3.4), has a thenable protocol of this shape
/// (`var then: ... { get throws }`) and receives these through
/// ``APlusAdapter/propertyThenable(_:)``.
public protocol APlusPropertyThenable: Sendable {
    /// The function that registers the two functions that settle the adopting promise, or `nil`
    /// when `then` holds no function. Each read counts: a library reads it once.
    var then: APlusThenFunction? { get throws }
}

/// A pending promise together with the functions that settle it (the JavaScript suite's
/// `adapter.deferred()`).
public struct APlusDeferred<Promise: Sendable>: Sendable {
    /// The pending promise.
    public let promise: Promise
    /// Resolves the promise with a value, a promise or a thenable; only the first settle counts.
    public let resolve: @Sendable (APlusValue) -> Void
    /// Rejects the promise; only the first settle counts.
    public let reject: @Sendable (any Error) -> Void

    /// Bundles a promise with the functions that settle it.
    public init(
        promise: Promise,
        resolve: @escaping @Sendable (APlusValue) -> Void,
        reject: @escaping @Sendable (any Error) -> Void
    ) {
        self.promise = promise
        self.resolve = resolve
        self.reject = reject
    }
}

/// What a promise library writes so that the Promises/A+ suite can drive it: the JavaScript
/// suite's adapter (`deferred`, `resolved`, `rejected`) plus `then`, and one hook that hands the
/// library a foreign thenable.
///
/// The adapter is a type of its own (usually an `enum` with no cases), not a conformance of the
/// promise type, so a library's promise can be a generic or non-final class, a struct or an actor
/// wrapper, and the adapter adds nothing to its public API.
///
/// Three requirements have no default: ``deferred()``, ``then(_:onFulfilled:onRejected:)`` and
/// ``thenable(_:)``. ``resolved(_:)``, ``rejected(_:)``, ``isCycleError(_:)`` and
/// ``propertyThenable(_:)`` have defaults.
/// The promise type is ``PromiseUnderTest``, a name chosen so that it does not hide a library
/// type named `Promise` inside the adapter.
///
/// The adapter must not implement the resolution procedure itself: `resolve`, `resolved(_:)` and
/// the values returned from `then`'s callbacks go to the library, whose own procedure must adopt
/// its promises, assimilate thenables and reject a promise resolved with itself. The suite
/// unwraps its own view of your promises and passes every foreign thenable through
/// ``thenable(_:)`` before a value reaches you.
///
/// Threading: the suite starts every case on the main queue and uses main-queue timers for its
/// timing windows, so the main queue must be serviced while it runs (Swift Testing does it; so
/// does an XCTest test while it waits, see ``APlusSuite/run(_:timeout:deadline:report:)``). The adapter
/// must have the library run `then`'s callbacks on the main queue (most libraries take a queue
/// per `then`, or a default queue): the cases check what happened before a callback by writing
/// it from the main queue, so a callback on another thread would race with those writes. A case
/// in which a callback runs off the main queue fails with a message that says so. Callbacks
/// must never run before `then` returns (Promises/A+ 2.2.4). The cases for several threads
/// (``APlusSuite/threadCases(for:)``) call ``deferred()``, `resolve`, `reject` and
/// ``then(_:onFulfilled:onRejected:)`` from threads of their own, several at once; the callbacks
/// still run on the main queue. A library that calls back on a queue of its own can still run
/// the suite: "Writing an adapter" shows how.
public protocol APlusAdapter: SendableMetatype {
    /// The library's promise type. The suite captures promises in `@Sendable` closures; wrap a
    /// promise type that is not `Sendable` in a box of your own.
    associatedtype PromiseUnderTest: Sendable

    /// Makes a pending promise and the functions that settle it.
    ///
    /// `resolve` and `reject` may be called any number of times, from any thread; only the first
    /// call may count.
    static func deferred() -> APlusDeferred<PromiseUnderTest>

    /// Makes a promise resolved with `value`: fulfilled with a plain value, or following a promise
    /// or thenable. The default resolves a ``deferred()`` promise.
    static func resolved(_ value: APlusValue) -> PromiseUnderTest

    /// Makes a promise rejected with `reason`. The default rejects a ``deferred()`` promise.
    static func rejected(_ reason: any Error) -> PromiseUnderTest

    /// Registers callbacks on `promise` and returns a new promise (Promises/A+ 2.2).
    ///
    /// - Parameters:
    ///   - promise: The promise to observe.
    ///   - onFulfilled: Called with the value once `promise` is fulfilled; `nil` passes the value
    ///     through. Its result is resolved into the returned promise; a throw rejects it.
    ///   - onRejected: Called with the reason once `promise` is rejected; `nil` passes the reason
    ///     through. Its result and throws are handled as for `onFulfilled`. It must not see what
    ///     `onFulfilled` throws: map `then(f, r)` to the library's two-callback form, never to
    ///     `then(f)` followed by a recovery with `r`.
    /// - Returns: A new promise that settles with the outcome of whichever callback ran.
    static func then(
        _ promise: PromiseUnderTest,
        onFulfilled: (@Sendable (APlusValue) throws -> APlusValue)?,
        onRejected: (@Sendable (any Error) throws -> APlusValue)?
    ) -> PromiseUnderTest

    /// Hands the library a foreign thenable: returns the value that the library's resolution
    /// procedure recognises as a thenable and assimilates by calling `foreign.then` (Promises/A+
    /// 2.3.3).
    ///
    /// Wrap `foreign` in a type that conforms to the library's own thenable protocol and forwards
    /// its `then` to `foreign.then`, unchanged: do not guard it, retry it or call it yourself, since
    /// 2.3.3 tests what the library does with a thenable that misbehaves. A library that does not
    /// assimilate foreign thenables returns `foreign`, and fails 2.3.3.
    ///
    /// When `foreign` is also an `Error`, the suite uses the result as a rejection reason, to check
    /// that a reason is never assimilated (2.2.7.2, 2.3.3.3.2): return an error object (a class
    /// instance that is an `Error`) that the library would assimilate if it were a value. A case
    /// that gets anything else fails with a message that says so.
    static func thenable(_ foreign: any APlusThenable) -> APlusValue

    /// Hands the library a foreign thenable whose `then` is a property: returns the value that
    /// the library's resolution procedure recognises as such a thenable, for the cases of
    /// ``APlusSuite/Options/thenProperties``.
    ///
    /// Wrap `foreign` in a type that conforms to the library's thenable protocol whose `then` is a
    /// property, and forward each read of it to `foreign.then`, unchanged: do not cache, retry or
    /// catch it, since those cases count the reads and throw from them. The default returns
    /// `foreign` itself, which a library without such thenables fulfils with: those cases then
    /// fail, each saying what the promise was fulfilled with.
    static func propertyThenable(_ foreign: any APlusPropertyThenable) -> APlusValue

    /// Whether `error` is what the library rejects a promise with when it is resolved with itself
    /// (Promises/A+ 2.3.1, the spec's `TypeError`).
    ///
    /// The default accepts any error, so 2.3.1 then only checks that such a promise is rejected;
    /// name the library's error to check that it is the cycle error.
    static func isCycleError(_ error: any Error) -> Bool
}

extension APlusAdapter {
    public static func resolved(_ value: APlusValue) -> PromiseUnderTest {
        let deferred = deferred()
        deferred.resolve(value)
        return deferred.promise
    }

    public static func rejected(_ reason: any Error) -> PromiseUnderTest {
        let deferred = deferred()
        deferred.reject(reason)
        return deferred.promise
    }

    public static func isCycleError(_ error: any Error) -> Bool { true }

    public static func propertyThenable(_ foreign: any APlusPropertyThenable) -> APlusValue { foreign }
}
