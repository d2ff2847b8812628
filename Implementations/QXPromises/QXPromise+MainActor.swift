import Dispatch

// Main-actor code and QX's main-queue blocks.
//
// QX's blocks are `@Sendable` and run on a queue (the main queue by default), so a block written
// in a `@MainActor` class may not touch the class's state. These overloads take a `@MainActor`
// block: `on: MainActor.shared` runs it on the main queue, as `on: .main` does, and tells the
// compiler so (`MainActor.assumeIsolated`, checked at run time). Every block a user passes to a
// promise has one: `then`, `catch`, `finally` and `progress`. (A resolver's work runs where the
// caller starts it; `all` and `retry` take no block.)
//
// ```swift
// @MainActor final class ProfileModel {
//     var avatars: [Avatar] = []
//     func load() {
//         fetchAvatars().then(on: MainActor.shared) { avatars in
//             self.avatars = avatars as! [Avatar]
//             return nil
//         }
//     }
// }
// ```

extension QXPromise {
    /// `then` with a block isolated to the main actor.
    @discardableResult
    public func then(
        on mainActor: MainActor, _ block: @escaping @MainActor (PromiseValue) throws -> PromiseValue
    ) -> QXPromise {
        then(on: .main) { value in try MainActor.assumeIsolated { try block(value) } }
    }

    /// `catch` with a block isolated to the main actor (the block decides, as `catch` does).
    @discardableResult
    public func `catch`(
        on mainActor: MainActor, _ block: @escaping @MainActor (any Error) throws -> PromiseValue
    ) -> QXPromise {
        self.catch(on: .main) { error in try MainActor.assumeIsolated { try block(error) } }
    }

    /// `finally` with a block isolated to the main actor.
    @discardableResult
    public func finally(on mainActor: MainActor, _ block: @escaping @MainActor () throws -> Void) -> QXPromise {
        finally(on: .main) { try MainActor.assumeIsolated { try block() } }
    }

    /// `progress` with a handler isolated to the main actor: each report runs it on the main queue,
    /// where it may update main-actor state (a progress bar of a view model, say).
    ///
    /// ```swift
    /// download(url).progress(on: MainActor.shared) { proportion, _ in self.fraction = proportion }
    /// ```
    @discardableResult
    public func progress(
        on mainActor: MainActor,
        _ handler: @escaping @MainActor (_ proportion: Double, _ value: PromiseValue) -> Void
    ) -> QXPromise {
        progress(on: .main) { proportion, value in MainActor.assumeIsolated { handler(proportion, value) } }
    }
}
