import Dispatch
import PromiseRuntime

extension Promise {
    /// What settles a pending promise: the producer's half of ``Promise/makePending()`` and
    /// ``Promise/init(_:)``.
    ///
    /// Only the first settle counts; later ones, and any after a cancellation, are ignored. A
    /// resolver may be copied and called from any thread. Callbacks never run on the stack of the
    /// call that settled the promise: those for the queue whose drain is running on this thread
    /// run after the current callback returns, the others are dispatched.
    ///
    /// ```swift
    /// Promise<Data, any Error> { resolver in
    ///     let request = session.dataTask(with: url) { data, _, error in
    ///         if let data { resolver.fulfill(data) } else { resolver.reject(error!) }
    ///     }
    ///     resolver.onCancel { request.cancel() }
    ///     request.resume()
    /// }
    /// ```
    public struct Resolver: Sendable {
        @usableFromInline let box: PromiseBox<Value, Failure>

        @inlinable
        init(box: PromiseBox<Value, Failure>) {
            self.box = box
        }

        /// Fulfils the promise with `value`.
        @inlinable
        public func fulfill(_ value: Value) {
            box.resolverComplete(.fulfilled(value))
        }

        /// Rejects the promise with `failure`.
        @inlinable
        public func reject(_ failure: Failure) {
            box.resolverComplete(.rejected(failure))
        }

        /// Settles the promise with `result`; passed as a completion handler, it adopts a
        /// `Result`-based API as it is (`completion: resolver.resolve`).
        @inlinable
        public func resolve(_ result: Result<Value, Failure>) {
            switch result {
            case .success(let value): box.resolverComplete(.fulfilled(value))
            case .failure(let failure): box.resolverComplete(.rejected(failure))
            }
        }

        /// Settles the promise as `promise` settles; the resolver's later calls are ignored.
        ///
        /// A pending `promise` is linked: it settles as this one does from then on, its callbacks
        /// with it.
        ///
        /// Resolving a promise with itself, or with one that settles as it does already, would
        /// leave it pending for ever: it is rejected with ``SelfResolutionError`` instead
        /// (Promises/A+ 2.3.1) when `Failure` can hold one (`any Error` can). A promise whose
        /// `Failure` cannot hold it stops the program with that message, in every build.
        @inlinable
        public func resolve(_ promise: Promise) {
            guard box.resolverMayAct(lockingIn: true) else { return }
            if !box.follow(promise.box, in: nil) {
                box.complete(.rejected(misuse(SelfResolutionError(), as: Failure.self)))
            }
        }

        /// Whether the promise was cancelled: the producer may stop its work.
        @inlinable
        public var isCancelled: Bool {
            box.currentOutcome?.isCancelled ?? false
        }

        /// Runs `handler` if the promise is cancelled before it settles otherwise (at once if it
        /// has been), on the thread that cancels it; never if it settles otherwise.
        ///
        /// - Parameter handler: Stops the producer's work (cancels a request, a `Task`).
        public func onCancel(_ handler: @escaping @Sendable () -> Void) {
            box.register(CancellationHandler(handler))
        }
    }
}

/// A cancellation handler: a waiter that wants no outcome, run only if its promise is cancelled.
@usableFromInline
final class CancellationHandler: Node, @unchecked Sendable {
    // `@unchecked Sendable`: `handler` is a constant.
    @usableFromInline let handler: @Sendable () -> Void

    @usableFromInline
    init(_ handler: @escaping @Sendable () -> Void) {
        self.handler = handler
        super.init(queue: nil, demandsOutcome: false) { _, _, _ in }
    }

    @usableFromInline
    override func runCancellationHandler() { handler() }

}

/// A promise that settles as another does: what ``Promise/Resolver/resolve(_:)-(Promise)`` waits
/// with. It keeps the adopting promise (its target) alive until the adopted one settles.
@usableFromInline
final class Adoption<Value: Sendable, Failure: Error>: Node, @unchecked Sendable {
    // `@unchecked Sendable`: `target` is set once; `source` is written only while the node is in
    // no list (made, or moved to the root its source forwards to) and read only by `run`.
    @usableFromInline let target: PromiseBox<Value, Failure>
    @exclusivity(unchecked) @usableFromInline unowned(unsafe) var source: PromiseBox<Value, Failure>

    @inlinable
    init(into target: PromiseBox<Value, Failure>, from source: PromiseBox<Value, Failure>) {
        self.target = target
        self.source = source
        super.init(queue: nil) { node, operation, drain in
            guard operation == .run else { return }
            let adoption = unsafeDowncast(node, to: Adoption.self)
            let outcome = adoption.source.settledOutcome
            adoption.source.releaseFromNode()
            adoption.target.complete(outcome, in: drain)
        }
    }

    @usableFromInline
    override func retarget(from old: Node, to new: Node) {
        if source === old { source = unsafeDowncast(new, to: PromiseBox<Value, Failure>.self) }
    }
}
