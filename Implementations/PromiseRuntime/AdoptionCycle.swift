/// Detects a cycle of promises adopting each other before it forms.
///
/// Promises/A+ 2.3.1 makes resolving a promise with itself an error; a longer cycle (`a` adopts
/// `b`, `b` adopts `a`) is just as hopeless, since every promise of it waits for the next one for
/// ever, and the spec encourages detecting it (note 3.6). Each design records, in its own terms,
/// which promise a pending promise waits for (the promise it adopted, the promise it observes, the
/// task it waits for: each design's documentation says which), and asks
/// this type before it adopts a promise of its design: if following that chain from the promise
/// to adopt leads back to the adopter, adopting would close a cycle, and the adopter rejects with
/// its cycle error instead. A settled promise ends the chain.
///
/// The walk is bounded by ``maximumSteps``: a nest of adoptions built from the innermost promise
/// outwards would otherwise cost a walk of its whole depth per adoption (quadratic in the depth).
/// Cycles through more promises than that, through another design's promises or through a
/// foreign thenable are not detected and stay pending, which A+ allows. The check is best
/// effort under concurrency too: two adoptions that close a cycle from two threads at the same
/// moment can both pass it (each walk reads one promise's link at a time, under that promise's
/// lock).
public enum AdoptionCycle {
    /// How many links a walk follows at most.
    public static let maximumSteps = 100

    /// Whether following the adoption chain from `start` reaches `adopter` within
    /// ``maximumSteps`` links (or `start` is `adopter`).
    ///
    /// - Parameters:
    ///   - start: The promise `adopter` is about to adopt.
    ///   - adopter: The identity of the promise being resolved.
    ///   - next: The promise a given promise waits for (one it adopted while pending), or `nil` if
    ///     it waits for none, has settled, or the design cannot tell. Called with no lock held.
    /// - Returns: `true` if adopting `start` would close a cycle.
    @inlinable
    public static func wouldClose<Node: AnyObject>(
        adopting start: Node,
        by adopter: ObjectIdentifier,
        next: (Node) -> Node?
    ) -> Bool {
        var current = start
        for _ in 0..<maximumSteps {
            if ObjectIdentifier(current) == adopter { return true }
            guard let following = next(current) else { return false }
            current = following
        }
        return ObjectIdentifier(current) == adopter
    }
}
