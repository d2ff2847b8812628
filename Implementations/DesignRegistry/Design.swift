public import APlusSuite
import AYPromises
import FBLPromises
import QNTasks
import QXPromises
public import SharedPromiseTypes

/// Every design in the project: the one list the conformance suite, the benchmarks and the reports
/// iterate.
///
/// Adding a design follows the README's checklist: its module (`Implementations/<module>/`, named
/// in `Package.swift`'s `designModules`), one case here, its adapter to the Promises/A+ suite in
/// `Adapters/`, its contender, its scenarios, its allocation budgets and its report. The switches
/// below are exhaustive, so a new case does not compile without its adapter; `ChecklistTests`
/// fails for each other step that is missing.
public enum Design: String, CaseIterable, Sendable {
    /// google/promises' `FBLPromise`: GCD observers.
    case fbl = "FBL"
    /// Alan Yeh's `AYPromise`: closure-property chaining, main-queue default.
    case ay = "AY"
    /// `QXPromise`: chaining by observing a promise's `state` key through a KVO-like observable.
    case qx = "QX"
    /// The QN design's cancellable tasks (`QNAsyncTask`); started tasks act as promises.
    case qn = "QN"

    /// The folder (and module) under `Implementations/` that holds the design.
    public var moduleName: String {
        switch self {
        case .fbl: return "FBLPromises"
        case .ay: return "AYPromises"
        case .qx: return "QXPromises"
        case .qn: return "QNTasks"
        }
    }

    /// A one-line description for reports.
    public var summary: String {
        switch self {
        case .fbl: return "GCD observers (google/promises' FBLPromise)"
        case .ay: return "closure-property chaining, main-queue default (AYPromise)"
        case .qx: return "key-observation chaining through a KVO-like observable (QXPromise)"
        case .qn: return "cancellable, lazily started tasks (QNAsyncTask)"
        }
    }

    /// The design's adapter to the Promises/A+ suite: the one way tests and tools drive every
    /// design alike, the protocol an outside library's adapter conforms to.
    public var adapter: any APlusAdapter.Type {
        switch self {
        case .fbl: return FBLAdapter.self
        case .ay: return AYAdapter.self
        case .qx: return QXAdapter.self
        case .qn: return QNAdapter.self
        }
    }

    /// The state of `promise`, one of this design's adapter's promises, or `nil` for any other
    /// value: what a test reads without waiting.
    public func state(of promise: any Sendable) -> PromiseState? {
        switch self {
        case .fbl: return (promise as? FBLAdapter.PromiseUnderTest).map(FBLAdapter.state(of:))
        case .ay: return (promise as? AYAdapter.PromiseUnderTest).map(AYAdapter.state(of:))
        case .qx: return (promise as? QXAdapter.PromiseUnderTest).map(QXAdapter.state(of:))
        case .qn: return (promise as? QNAdapter.PromiseUnderTest).map(QNAdapter.state(of:))
        }
    }
}
