import Synchronization

/// A flag that lets exactly one of several racing callers through.
///
/// `claim()` returns `true` to the first caller only, whichever thread it is on. Resolution
/// procedures use it to make "the first call wins" hold for callbacks handed to foreign code.
public final class FirstCallGate: Sendable {
    private let claimed = Atomic<Bool>(false)

    /// Makes an unclaimed gate.
    public init() {}

    /// Claims the gate: `true` for the first caller, `false` for every later one.
    public func claim() -> Bool {
        !claimed.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// Whether some caller has claimed the gate.
    public var isClaimed: Bool {
        claimed.load(ordering: .acquiring)
    }
}
