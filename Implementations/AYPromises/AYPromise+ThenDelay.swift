import PromiseRuntime

extension AYPromise {
    /// ``then`` with a pause: the block runs on the main queue `seconds` after this promise is
    /// fulfilled: `promise.thenDelay(0.5) { value in ... }`.
    ///
    /// A rejection skips the block and passes on at once, undelayed. A delay that is negative,
    /// NaN or infinite rejects the next promise with ``AYPromiseError/invalidArgument(_:)`` (the
    /// original does not check it).
    ///
    /// Threading: the block runs on the main queue.
    public var thenDelay: AYOperatorTakingArgument<Double, PromiseValue> {
        AYOperatorTakingArgument(source: self) { seconds throws(AYPromiseError) in try .thenDelay(seconds) }
    }
}
