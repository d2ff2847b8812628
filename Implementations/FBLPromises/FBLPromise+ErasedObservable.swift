import Dispatch

// An FBL promise observed with its value type erased. Three places need it: `all` and `any`
// combine inputs of different types, and the resolution procedure (`FBLPromise.swift`) adopts a
// promise of another value type.

/// Observes one input: `(queue, fulfill, reject)`.
typealias ErasedObservation =
    @Sendable (
        DispatchQueue,
        @escaping @Sendable (any Sendable) -> Void,
        @escaping @Sendable (any Error) -> Void
    ) -> Void

/// An FBL promise of any value type, observed with the value type erased: lets `all` and `any`
/// combine inputs of different types, and lets a promise adopt one of another type on the queue it
/// was given.
protocol ErasedObservable: Sendable {
    func observeErased(
        on queue: DispatchQueue,
        fulfill: @escaping @Sendable (any Sendable) -> Void,
        reject: @escaping @Sendable (any Error) -> Void
    )
}

extension FBLPromise: ErasedObservable {
    func observeErased(
        on queue: DispatchQueue,
        fulfill: @escaping @Sendable (any Sendable) -> Void,
        reject: @escaping @Sendable (any Error) -> Void
    ) {
        observe(on: queue, fulfill: { fulfill($0) }, reject: reject)
    }

    /// ``observeErased(on:fulfill:reject:)`` as a value, to keep inputs of different types in one
    /// array.
    var erased: ErasedObservation { observeErased }
}
