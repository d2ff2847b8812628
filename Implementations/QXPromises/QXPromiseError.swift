/// Errors QX promises reject with.
public enum QXPromiseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A promise was resolved with itself (Promises/A+ 2.3.1, the spec's `TypeError`).
    case cycle
    /// An operator was given an argument it cannot honour (a negative retry count).
    case invalidArgument(String)

    /// A sentence for logs and test failures.
    public var description: String {
        switch self {
        case .cycle: return "A promise was resolved with itself (Promises/A+ 2.3.1)."
        case .invalidArgument(let reason): return "Invalid argument: \(reason)"
        }
    }
}
