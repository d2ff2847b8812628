import FBLPromises
public import PromiseInterface
import QXPromises

/// Every design in the project: the one list the conformance suite, the benchmarks and the reports
/// iterate.
///
/// Adding a design means one folder under `Implementations/` (its module, conforming its promise
/// type to ``APlusPromise``) plus one case here. A test fails when an implementation folder has no
/// case.
public enum Design: String, CaseIterable, Sendable {
    /// google/promises' `FBLPromise`: GCD observers.
    case fbl = "FBL"
    /// `QXPromise`: chaining by observing a promise's `state` key through a KVO-like observable.
    case qx = "QX"

    /// The folder (and module) under `Implementations/` that holds the design.
    public var moduleName: String {
        switch self {
        case .fbl: return "FBLPromises"
        case .qx: return "QXPromises"
        }
    }

    /// A one-line description for reports.
    public var summary: String {
        switch self {
        case .fbl: return "GCD observers (google/promises' FBLPromise)"
        case .qx: return "key-observation chaining through a KVO-like observable (QXPromise)"
        }
    }

    /// The design's promise type, as the shared protocol sees it.
    public var promiseType: any APlusPromise.Type {
        switch self {
        case .fbl: return FBLPromise<PromiseValue>.self
        case .qx: return QXPromise.self
        }
    }
}
