import DesignRegistry

/// What a user weighs beside the numbers, per design: the features the README's table shows. Each
/// is pinned by the design's own tests (typed values by its API, cancellation by its `cancel()`
/// tests, progress by its progress tests, laziness by `OneAsyncOperationTests.qn`).
struct DesignFacts {
    var values: String
    var starts: String
    var cancels: String
    var progress: String
    /// The operation of `CostOperations` that is one link of a chain.
    var chainLink: String

    static func of(_ design: Design) -> DesignFacts {
        switch design {
        case .fbl:
            return DesignFacts(
                values: "typed", starts: "at once", cancels: "no", progress: "no", chainLink: "FBL chain link")
        case .ay:
            return DesignFacts(
                values: "untyped", starts: "at once", cancels: "no", progress: "no", chainLink: "AY chain link")
        case .qx:
            return DesignFacts(
                values: "untyped", starts: "at once", cancels: "no", progress: "yes", chainLink: "QX chain link")
        case .qn:
            return DesignFacts(
                values: "typed", starts: "on `start`", cancels: "yes", progress: "yes", chainLink: "QN map link")
        }
    }
}
