public import Dispatch
public import PromiseRuntime

/// The promise that ``FBLPromise/then(on:_:)-(_,Then<Result>)`` and
/// ``FBLPromise/chain(on:chainedFulfill:chainedReject:)`` return: it holds its queue and the step
/// to run, and is itself the observer of the promise before it.
///
/// An observer closure that captured the queue, the step and the new promise would need a context
/// of its own, one allocation per link. The closure this promise registers captures only the
/// promise, and a closure that captures one native object uses that object as its context: a
/// link allocates the promise, and GCD's closure and block for the callback, and nothing else.
///
/// The step is taken out under the promise's lock when it runs, so it is freed once it has run, as
/// an observer closure would be: a promise kept by an object that its own step captures is not a
/// reference cycle.
///
/// `@unchecked Sendable`: `step` is guarded by the lock of ``FBLPromise/machine`` (the promise's
/// own lock); `queue` is a constant.
@usableFromInline
final class FBLChainedPromise<Input: Sendable, Value: Sendable>: FBLPromise<Value>, @unchecked Sendable {
    /// What runs when the promise before settles.
    @usableFromInline
    enum Step {
        /// `then`: maps the value; a rejection passes through without calling it.
        case then(@Sendable (Input) throws -> Value)
        /// `then` with a block that returns nothing: runs it and passes the value on (`Input` is
        /// `Value`). A case of its own, so that the block needs no closure around it.
        case tap(@Sendable (Input) throws -> Void)
        /// `chain`: a callback for each outcome says what resolves this promise.
        case chain(
            fulfill: @Sendable (Input) throws -> Resolution,
            reject: @Sendable (any Error) throws -> Resolution
        )
    }

    /// Where the step runs, and where a promise it returns is observed.
    @usableFromInline let queue: DispatchQueue
    /// Guarded by `machine`'s lock: set once by the initialiser, taken out by the one callback.
    /// The lock is what makes access exclusive, so the runtime's own check, which every link would
    /// pay, is left out.
    @usableFromInline @exclusivity(unchecked) var step: Step?

    @inlinable
    init(on queue: DispatchQueue, step: Step) {
        self.queue = queue
        self.step = step
        super.init(pending: ())
    }

    /// A pending promise that runs `step` on `queue` when `source` settles.
    @inlinable
    static func observing(_ source: FBLPromise<Input>, on queue: DispatchQueue, step: Step) -> FBLChainedPromise {
        let chained = FBLChainedPromise(on: queue, step: step)
        // Captures only `chained`, which is then the closure's context: no allocation.
        source.addObserver { outcome in chained.receive(outcome) }
        return chained
    }

    /// The observer: called once, on the thread that settles the promise before.
    @inlinable
    func receive(_ outcome: Result<Input, any Error>) {
        queue.async(group: fblDispatchGroup) { self.run(outcome) }
    }

    @inlinable
    func run(_ outcome: Result<Input, any Error>) {
        let step = machine.withLock { _ in
            defer { self.step = nil }
            return self.step
        }
        guard let step else {
            preconditionFailure("a chained promise's step ran twice: a promise calls each observer once")
        }
        switch step {
        case .then(let work):
            switch outcome {
            case .success(let value):
                do {
                    resolve(try work(value), on: queue)
                } catch {
                    reject(error)
                }
            case .failure(let error):
                reject(error)
            }
        case .tap(let work):
            switch outcome {
            case .success(let value):
                do {
                    try work(value)
                    // Always the same type (only `then` with a block that returns nothing makes a
                    // `tap`); a no-op once specialised.
                    resolve(value as! Value, on: queue)
                } catch {
                    reject(error)
                }
            case .failure(let error):
                reject(error)
            }
        case .chain(let onFulfilled, let onRejected):
            let resolution = Swift.Result {
                switch outcome {
                case .success(let value): return try onFulfilled(value)
                case .failure(let error): return try onRejected(error)
                }
            }
            resolve(with: resolution, on: queue)
        }
    }
}
