import Dispatch

// Main-actor code and FBL's main-queue callbacks.
//
// FBL's blocks are `@Sendable` and run on a queue, so a block passed from a `@MainActor` class
// may not touch the class's state, although on the main queue it runs on the main actor's
// thread. These overloads take a `@MainActor` block instead: they run it on the main queue and
// tell the compiler so (`MainActor.assumeIsolated`, which checks it at run time).
//
// ```swift
// @MainActor final class ProfileModel {
//     var avatars: [Avatar] = []
//     func load() {
//         fetchAvatars().then(on: MainActor.shared) { avatars in self.avatars = avatars }
//     }
// }
// ```
//
// Each returns what the queue version returns; `on: MainActor.shared` is `on: .main` with the
// block isolated to the main actor. Every block that reacts to a promise has one: `then`, `catch`,
// `always`, `recover` and `validate`. (The work of `FBLPromise(on:_:)`, `wrap` and `retry` starts
// at once from the caller, which can pass `.main` and hop itself; `reduce` folds with `then`.)

extension FBLPromise {
    /// `then` with a block isolated to the main actor: it runs on the main queue and may use
    /// main-actor state.
    ///
    /// - Parameters:
    ///   - mainActor: `MainActor.shared`.
    ///   - work: Maps the value, on the main actor.
    /// - Returns: A promise of `work`'s result.
    @discardableResult
    public func then<Result: Sendable>(
        on mainActor: MainActor,
        _ work: @escaping @MainActor (Value) throws -> Result
    ) -> FBLPromise<Result> {
        then(on: .main) { value in try MainActor.assumeIsolated { try work(value) } }
    }

    /// The promise-returning `then`, with a block isolated to the main actor: the promise it
    /// returns is adopted.
    @discardableResult
    public func then<Result: Sendable>(
        on mainActor: MainActor,
        _ work: @escaping @MainActor (Value) throws -> FBLPromise<Result>
    ) -> FBLPromise<Result> {
        then(on: .main) { value in try MainActor.assumeIsolated { try work(value) } }
    }

    /// The `Void` `then` (the value passes on), with a block isolated to the main actor.
    @discardableResult
    public func then(
        on mainActor: MainActor,
        _ work: @escaping @MainActor (Value) throws -> Void
    ) -> FBLPromise<Value> {
        then(on: .main) { value in try MainActor.assumeIsolated { try work(value) } }
    }

    /// `catch` with a block isolated to the main actor: it observes the error on the main queue;
    /// the promise stays rejected.
    @discardableResult
    public func `catch`(
        on mainActor: MainActor,
        _ reject: @escaping @MainActor (any Error) -> Void
    ) -> FBLPromise<Value> {
        self.catch(on: .main) { error in MainActor.assumeIsolated { reject(error) } }
    }

    /// `always` with a block isolated to the main actor: it runs on the main queue however this
    /// promise settles; the outcome passes on.
    @discardableResult
    public func always(
        on mainActor: MainActor,
        _ work: @escaping @MainActor () -> Void
    ) -> FBLPromise<Value> {
        always(on: .main) { MainActor.assumeIsolated { work() } }
    }

    /// `recover` with a block isolated to the main actor: the promise it returns is adopted.
    @discardableResult
    public func recover(
        on mainActor: MainActor,
        _ recovery: @escaping @MainActor (any Error) throws -> FBLPromise<Value>
    ) -> FBLPromise<Value> {
        recover(on: .main) { error in try MainActor.assumeIsolated { try recovery(error) } }
    }

    /// `recover` with a value, from a block isolated to the main actor.
    @discardableResult
    public func recover(
        on mainActor: MainActor,
        _ recovery: @escaping @MainActor (any Error) throws -> Value
    ) -> FBLPromise<Value> {
        recover(on: .main) { error in try MainActor.assumeIsolated { try recovery(error) } }
    }

    /// `validate` with a predicate isolated to the main actor.
    @discardableResult
    public func validate(
        on mainActor: MainActor,
        _ predicate: @escaping @MainActor (Value) -> Bool
    ) -> FBLPromise<Value> {
        validate(on: .main) { value in MainActor.assumeIsolated { predicate(value) } }
    }
}
