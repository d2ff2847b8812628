import PromiseRuntime
import Synchronization

/// A value compared by identity (JavaScript's `strictEqual` on objects). Not an `Error`, so no
/// library mistakes it for a rejection.
final class Marker: Sendable, CustomStringConvertible {
    let name: String
    init(_ name: String) { self.name = name }
    var description: String { "the value ‹\(name)›" }
}

/// A reason compared by identity.
final class MarkerError: Error, Sendable, CustomStringConvertible {
    let name: String
    init(_ name: String) { self.name = name }
    var description: String { "the reason ‹\(name)›" }
}

/// A reason compared by `==` (the Swift stand-in for JavaScript's falsy reasons such as `0`).
struct ValueError: Error, Equatable, Sendable, CustomStringConvertible {
    let code: Int
    var description: String { "the reason \(code)" }
}

/// A reason that is also a thenable which never calls back: it must be used as a reason as is,
/// never assimilated.
final class AlwaysPendingThenableError: Error, APlusThenable, CustomStringConvertible {
    init() {}
    var description: String { "a reason that is a thenable" }
    func then(
        resolvePromise: @escaping @Sendable (APlusValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) {}
}

/// The suite's shared values (`dummy`, `sentinel`, `other` … of the JS suite).
enum Fixture {
    static let dummy = Marker("dummy")
    static let dummyError = MarkerError("dummy")
    static let sentinel = Marker("sentinel")
    static let sentinelError = MarkerError("sentinel")
    static let sentinel2 = Marker("sentinel2")
    static let sentinel2Error = MarkerError("sentinel2")
    static let sentinel3 = Marker("sentinel3")
    static let other = Marker("other")
    static let otherError = MarkerError("other")
}

/// A thenable whose `then` runs a script; the suite's foreign thenables are all scripts.
final class ScriptedThenable: APlusThenable {
    typealias Script =
        @Sendable (
            _ resolvePromise: @escaping @Sendable (APlusValue) -> Void,
            _ rejectPromise: @escaping @Sendable (any Error) -> Void
        ) throws -> Void

    private let script: Script
    private let calls = Atomic<Int>(0)
    /// Called when `then` is called a second time (a one-time thenable reports a failure).
    private let onRepeatedCall: (@Sendable () -> Void)?

    init(onRepeatedCall: (@Sendable () -> Void)? = nil, _ script: @escaping Script) {
        self.script = script
        self.onRepeatedCall = onRepeatedCall
    }

    /// How many times `then` was called.
    var thenCalls: Int { calls.load(ordering: .sequentiallyConsistent) }

    func then(
        resolvePromise: @escaping @Sendable (APlusValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) throws {
        let count = calls.add(1, ordering: .sequentiallyConsistent).newValue
        if count > 1, let onRepeatedCall {
            onRepeatedCall()
            return
        }
        try script(resolvePromise, rejectPromise)
    }
}

/// A thenable whose `then` is a property; each read runs a script with the number of the read
/// (1 for the first), which returns the function, `nil`, or throws.
final class ScriptedPropertyThenable: APlusPropertyThenable {
    typealias Read = @Sendable (_ readNumber: Int) throws -> APlusThenFunction?

    private let read: Read
    private let reads = Atomic<Int>(0)

    init(_ read: @escaping Read) { self.read = read }

    /// How many times `then` was read.
    var thenReads: Int { reads.load(ordering: .sequentiallyConsistent) }

    var then: APlusThenFunction? {
        get throws { try read(reads.add(1, ordering: .sequentiallyConsistent).newValue) }
    }
}

/// A mutable value shared between a case body and its callbacks.
final class Box<Value: Sendable>: Sendable {
    /// Guards the value.
    private let storage: PromiseMutex<Value>
    init(_ value: Value) { storage = PromiseMutex(value) }
    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
    /// Mutates the value atomically and returns the result.
    @discardableResult
    func update<Result: Sendable>(_ body: @Sendable (inout Value) -> Result) -> Result {
        storage.withLock { body(&$0) }
    }
}

/// Identity and equality checks on `APlusValue`s and reasons.
func isSame(_ value: APlusValue, _ marker: Marker) -> Bool {
    (value as? Marker) === marker
}

func isSame(_ error: any Error, _ marker: MarkerError) -> Bool {
    (error as? MarkerError) === marker
}

/// Whether `value` is `object`, or holds it within a few levels of stored properties: a library
/// fulfils with what the adapter made of one of the suite's objects, usually a wrapper of it.
func holds(_ value: Any?, _ object: AnyObject, depth: Int = 4) -> Bool {
    guard let value else { return false }
    if type(of: value) is AnyClass, (value as AnyObject) === object { return true }
    guard depth > 0 else { return false }
    return Mirror(reflecting: value).children.contains { holds($0.value, object, depth: depth - 1) }
}

/// A value as a failure message shows it: in the words of the case, never a type of the suite's
/// own (the reader knows their library's types, not the suite's).
func show(_ value: APlusValue) -> String {
    guard let value else { return "nil" }
    if value is any APlusThenable || value is any APlusPropertyThenable { return "one of the suite's thenables" }
    let text = "\(value)"
    // The library's own wrapper of a thenable the suite handed it: name the library's type only.
    if text.contains("HandingOver") || text.contains("ScriptedPropertyThenable") || text.contains("ScriptedThenable")
        || text.contains("APlusSuite.")
    {
        return "a \(type(of: value)) wrapping one of the suite's thenables"
    }
    return text
}
