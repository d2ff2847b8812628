/// The state of a promise, as the shared protocol reports it.
///
/// A promise is `pending`, then exactly once `fulfilled` or `rejected`, and never changes again.
public enum PromiseState: Sendable {
    /// Not settled yet.
    case pending
    /// Settled with a value.
    case fulfilled(PromiseValue)
    /// Settled with a reason.
    case rejected(any Error)

    /// Whether the promise is still pending.
    public var isPending: Bool {
        if case .pending = self { return true }
        return false
    }

    /// The fulfilment value, or `nil` while pending or when rejected.
    ///
    /// A promise fulfilled with `nil` reports `.some(nil)` here, so `nil` always means "no value".
    public var value: PromiseValue? {
        if case .fulfilled(let value) = self { return .some(value) }
        return nil
    }

    /// The rejection reason, or `nil` while pending or when fulfilled.
    public var error: (any Error)? {
        if case .rejected(let error) = self { return error }
        return nil
    }
}
