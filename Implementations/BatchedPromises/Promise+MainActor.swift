public import Dispatch

// Main-actor code and the callbacks of a promise.
//
// A callback is `@Sendable` and runs on a queue, so one passed from a `@MainActor` class may not
// touch the class's state, although on the main queue it runs on the main actor's thread. Each
// operator that runs a callback a user writes has a form that takes a `@MainActor` one instead,
// `on: MainActor.shared` (the untyped `then` of the Promises/A+ suite aside): it runs
// on the main queue, in the main queue's drain (a promise settled by a main-actor callback runs
// the next one in the same turn of the main queue), and tells the compiler so
// (`MainActor.assumeIsolated`, which checks it at run time).
//
// ```swift
// @MainActor final class ProfileModel {
//     var avatars: [Avatar] = []
//     func load() {
//         fetchAvatars().map(on: MainActor.shared) { avatars in self.avatars = avatars }
//     }
// }
// ```

extension Promise {
    /// ``map(on:_:)`` with a callback isolated to the main actor.
    public func map<NewValue: Sendable>(
        on mainActor: MainActor,
        _ transform: @escaping @MainActor (Value) throws(Failure) -> NewValue
    ) -> Promise<NewValue, Failure> {
        map(on: Drain.mainQueue) { (value: Value) throws(Failure) -> NewValue in
            try MainActor.assumeIsolated { Result { () throws(Failure) in try transform(value) } }.get()
        }
    }

    /// ``flatMap(on:_:)`` with a callback isolated to the main actor.
    public func flatMap<NewValue: Sendable>(
        on mainActor: MainActor,
        _ transform: @escaping @MainActor (Value) throws(Failure) -> Promise<NewValue, Failure>
    ) -> Promise<NewValue, Failure> {
        flatMap(on: Drain.mainQueue) { (value: Value) throws(Failure) -> Promise<NewValue, Failure> in
            try MainActor.assumeIsolated { Result { () throws(Failure) in try transform(value) } }.get()
        }
    }

    /// ``recover(on:_:)-(_,(Failure)->Value)`` with a callback isolated to the main actor.
    public func recover<NewFailure: Error>(
        on mainActor: MainActor,
        _ transform: @escaping @MainActor (Failure) throws(NewFailure) -> Value
    ) -> Promise<Value, NewFailure> {
        recover(on: Drain.mainQueue) { (failure: Failure) throws(NewFailure) -> Value in
            try MainActor.assumeIsolated { Result { () throws(NewFailure) in try transform(failure) } }.get()
        }
    }

    /// ``recover(on:_:)-(_,(Failure)->Promise<Value,NewFailure>)`` with a callback isolated to the
    /// main actor.
    public func recover<NewFailure: Error>(
        on mainActor: MainActor,
        _ transform: @escaping @MainActor (Failure) -> Promise<Value, NewFailure>
    ) -> Promise<Value, NewFailure> {
        recover(on: Drain.mainQueue) { (failure: Failure) -> Promise<Value, NewFailure> in
            MainActor.assumeIsolated { transform(failure) }
        }
    }

    /// ``mapError(on:_:)`` with a callback isolated to the main actor.
    public func mapError<NewFailure: Error>(
        on mainActor: MainActor,
        _ transform: @escaping @MainActor (Failure) -> NewFailure
    ) -> Promise<Value, NewFailure> {
        mapError(on: Drain.mainQueue) { failure in MainActor.assumeIsolated { transform(failure) } }
    }

    /// ``retry(attempts:delay:on:while:_:)`` with its attempt and its predicate isolated to the
    /// main actor.
    public static func retry(
        attempts: Int, delay: DispatchTimeInterval = .seconds(0), on mainActor: MainActor,
        while shouldRetry: @escaping @MainActor (Failure) -> Bool = { _ in true },
        _ attempt: @escaping @MainActor () -> Promise
    ) -> Promise {
        retry(
            attempts: attempts, delay: delay, on: Drain.mainQueue,
            while: { failure in MainActor.assumeIsolated { shouldRetry(failure) } },
            { MainActor.assumeIsolated { attempt() } })
    }

    /// ``catch(on:_:)`` with a callback isolated to the main actor.
    @discardableResult
    public func `catch`(on mainActor: MainActor, _ body: @escaping @MainActor (Failure) -> Void) -> Promise {
        self.catch(on: Drain.mainQueue) { failure in MainActor.assumeIsolated { body(failure) } }
    }

    /// ``always(on:_:)`` with a callback isolated to the main actor.
    @discardableResult
    public func always(on mainActor: MainActor, _ body: @escaping @MainActor () -> Void) -> Promise {
        always(on: Drain.mainQueue) { MainActor.assumeIsolated { body() } }
    }

    /// ``whenComplete(on:_:)`` with a callback isolated to the main actor.
    public func whenComplete(on mainActor: MainActor, _ body: @escaping @MainActor (Outcome) -> Void) {
        whenComplete(on: Drain.mainQueue) { outcome in MainActor.assumeIsolated { body(outcome) } }
    }
}
