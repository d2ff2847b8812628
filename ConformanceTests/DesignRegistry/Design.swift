public import APlusSuite
import AYPromises
import BatchedPromises
import FBLPromises
import QNTasks
import QXPromises
public import SharedPromiseTypes

/// Every design in the project: the one list the conformance suite, the benchmarks and the reports
/// iterate.
///
/// Registering a design is one case here and its adapter in ``adapter``: everything else the
/// tests and the lab need about the design comes from its adapter (``RegisteredAdapter``) or from
/// files of its own (CONTRIBUTING's "Adding a design"). The switch is exhaustive, so a new case
/// does not compile without its adapter; `ChecklistTests` fails for each other step that is
/// missing.
public enum Design: String, CaseIterable, Sendable {
    /// google/promises' `FBLPromise`: GCD observers.
    case fbl = "FBL"
    /// Alan Yeh's `AYPromise`: closure-property chaining, main-queue default.
    case ay = "AY"
    /// `QXPromise`: chaining by observing a promise's `state` key through a KVO-like observable.
    case qx = "QX"
    /// The QN design's cancellable tasks (`QNAsyncTask`); started tasks act as promises.
    case qn = "QN"
    /// This project's own design: callbacks that join the running drain of their queue, one
    /// dispatch per batch, one object per link (`Promise<Value, Failure>`).
    case batched = "Batched"

    /// The design's adapter: to the Promises/A+ suite, the one way tests and tools drive every
    /// design alike (the protocol an outside library's adapter conforms to), and the registry's
    /// facts about the design.
    public var adapter: any RegisteredAdapter.Type {
        switch self {
        case .fbl: return FBLAdapter.self
        case .ay: return AYAdapter.self
        case .qx: return QXAdapter.self
        case .qn: return QNAdapter.self
        case .batched: return BatchedAdapter.self
        }
    }

    /// The folder (and module) under `Implementations/` that holds the design.
    public var moduleName: String { adapter.moduleName }

    /// A one-line description for reports.
    public var summary: String { adapter.summary }

    /// What a user weighs beside the numbers (the README's table shows them).
    public var features: DesignFeatures { adapter.features }

    /// The state of `promise`, one of this design's adapter's promises, or `nil` for any other
    /// value: what a test reads without waiting.
    public func state(of promise: any Sendable) -> PromiseState? { adapter.state(ofAny: promise) }

    /// The object that holds `promise`'s state, one of this design's adapter's promises (its
    /// identity, and what a weak reference sees freed), or `nil` for any other value.
    public func storage(of promise: any Sendable) -> AnyObject? { adapter.storage(ofAny: promise) }
}

/// A registered design's adapter to the Promises/A+ suite, with what the registry knows about the
/// design: each design states these in its own adapter file.
public protocol RegisteredAdapter: APlusAdapter {
    /// The folder (and module) under `Implementations/` that holds the design.
    static var moduleName: String { get }
    /// A one-line description for reports.
    static var summary: String { get }
    /// What a user weighs beside the numbers, each pinned by the design's own tests.
    static var features: DesignFeatures { get }
    /// The promise's state, read without waiting.
    static func state(of promise: PromiseUnderTest) -> PromiseState
    /// The object that holds the promise's state: the promise itself for a class, the storage it
    /// refers to for a struct. The default is the promise, which must then be a class instance.
    static func storage(of promise: PromiseUnderTest) -> AnyObject
}

extension RegisteredAdapter {
    public static func storage(of promise: PromiseUnderTest) -> AnyObject {
        precondition(
            type(of: promise) is AnyClass, "\(type(of: promise)) is not a class: its adapter names its storage")
        return promise as AnyObject
    }

    /// The state of `promise` if it is one of this adapter's promises.
    static func state(ofAny promise: any Sendable) -> PromiseState? {
        (promise as? PromiseUnderTest).map(state(of:))
    }

    /// The storage of `promise` if it is one of this adapter's promises.
    static func storage(ofAny promise: any Sendable) -> AnyObject? {
        (promise as? PromiseUnderTest).map(storage(of:))
    }
}

/// The features of a design that the README's table shows, as its cells read.
public struct DesignFeatures: Sendable, Equatable {
    /// `typed` or `untyped`.
    public var values: String
    /// When the work starts: `at once`, or what starts it.
    public var starts: String
    /// Whether a pending operation can be cancelled: `yes` or `no`.
    public var cancels: String
    /// Whether progress is reported: `yes` or `no`.
    public var progress: String

    public init(values: String, starts: String, cancels: String, progress: String) {
        self.values = values
        self.starts = starts
        self.cancels = cancels
        self.progress = progress
    }
}
