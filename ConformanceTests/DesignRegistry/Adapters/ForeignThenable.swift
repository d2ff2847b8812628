public import APlusSuite
import SharedPromiseTypes

/// The suite's foreign thenable as a `Thenable`, the protocol every design's resolution procedure
/// assimilates, with the foreign `then` unguarded: the design's own procedure must guard it. A
/// thenable that is also an error (a rejection reason the suite checks is never assimilated)
/// stays an error. Every design's adapter hands the suite's thenables over through it, and so may
/// any adapter whose library assimilates `Thenable`.
public func handingOver(_ foreign: any APlusThenable) -> APlusValue {
    foreign is any Error ? ForeignThenableError(foreign) : ForeignThenable(foreign: foreign)
}

/// The suite's foreign thenable whose `then` is a property, as a `PropertyThenable`, whose every
/// read is forwarded unchanged: the design's own procedure reads it once.
public func handingOver(_ foreign: any APlusPropertyThenable) -> APlusValue {
    ForeignPropertyThenable(foreign: foreign)
}

/// A foreign thenable as a `Thenable`.
struct ForeignThenable: Thenable {
    let foreign: any APlusThenable

    func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) throws {
        try foreign.then(resolvePromise: resolvePromise, rejectPromise: rejectPromise)
    }
}

/// A foreign thenable that is also an error, as a `Thenable` error object (the suite compares
/// reasons of this kind by identity).
final class ForeignThenableError: Error, Thenable {
    let foreign: ForeignThenable

    init(_ foreign: any APlusThenable) { self.foreign = ForeignThenable(foreign: foreign) }

    func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) throws {
        try foreign.then(resolvePromise: resolvePromise, rejectPromise: rejectPromise)
    }
}

/// A foreign thenable whose `then` is a property, as a `PropertyThenable`.
struct ForeignPropertyThenable: PropertyThenable {
    let foreign: any APlusPropertyThenable

    var then: ThenFunction? {
        get throws { try foreign.then }
    }
}
