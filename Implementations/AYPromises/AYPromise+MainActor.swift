// Main-actor code and AY's main-queue blocks.
//
// AY's `then`, `catch` and `always` run their blocks on the main queue, but the blocks are
// `@Sendable`, so a block written in a `@MainActor` class may not touch the class's state. The
// `…OnMainActor` operators take `@MainActor` blocks: they run on the main queue, as the plain
// operators do, and tell the compiler so (`MainActor.assumeIsolated`, checked at run time).
//
// ```swift
// @MainActor final class ProfileModel {
//     var avatars: [Avatar] = []
//     func load() {
//         fetchAvatars().thenOnMainActor { avatars in self.avatars = avatars as! [Avatar] }
//     }
// }
// ```

extension AYPromise {
    /// ``then`` with a block isolated to the main actor.
    public var thenOnMainActor: AYMainActorOperator<PromiseValue> { AYMainActorOperator(mainQueueOperator: then) }

    /// ``catch`` with a block isolated to the main actor (it recovers, as `catch` does).
    public var catchOnMainActor: AYMainActorOperator<any Error> { AYMainActorOperator(mainQueueOperator: self.catch) }

    /// ``always`` with a block isolated to the main actor.
    public var alwaysOnMainActor: AYMainActorOperator<PromiseValue> {
        AYMainActorOperator(mainQueueOperator: always)
    }
}

/// What the `…OnMainActor` operators return: call it with a `@MainActor` block. The block rules
/// (what it may take and return) are those of ``AYOperator``.
public struct AYMainActorOperator<Input: Sendable>: Sendable {
    /// The plain operator, whose blocks run on the main queue.
    let mainQueueOperator: AYOperator<Input>

    /// Chains a block that takes the input and returns a value of an inferred type.
    @discardableResult
    public func callAsFunction<Result: Sendable>(
        _ block: @escaping @MainActor (Input) throws -> Result
    ) -> AYPromise {
        mainQueueOperator { input in try MainActor.assumeIsolated { try block(input) } }
    }

    /// Chains a block that takes no argument.
    @discardableResult
    public func callAsFunction<Result: Sendable>(_ block: @escaping @MainActor () throws -> Result) -> AYPromise {
        mainQueueOperator { () throws -> Result in try MainActor.assumeIsolated { try block() } }
    }

    /// Chains a block that takes the input and returns a dynamic value (`nil`, or `return`s of
    /// several types).
    @_disfavoredOverload
    @discardableResult
    public func callAsFunction(_ block: @escaping @MainActor (Input) throws -> PromiseValue) -> AYPromise {
        mainQueueOperator { input -> PromiseValue in try MainActor.assumeIsolated { try block(input) } }
    }

    /// Chains a block that takes no argument and returns a dynamic value.
    @_disfavoredOverload
    @discardableResult
    public func callAsFunction(_ block: @escaping @MainActor () throws -> PromiseValue) -> AYPromise {
        mainQueueOperator { () throws -> PromiseValue in try MainActor.assumeIsolated { try block() } }
    }
}
