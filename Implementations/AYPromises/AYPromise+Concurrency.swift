import PromiseRuntime

extension AYPromise {
    /// The value, once this promise is fulfilled: `let value = try await promise.value`. Throws
    /// the error if it is rejected. Beyond the original.
    ///
    /// Needs no queue: the continuation resumes on the settling thread, so it works whoever
    /// services the main queue. Promises cannot be cancelled, so cancelling the awaiting task
    /// does not end the wait.
    public var value: PromiseValue {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                pipe { continuation.resume(with: $0) }
            }
        }
    }

    /// The value as a `Type`: `let name = try await promise.value(as: String.self)`.
    ///
    /// - Parameter valueType: The type the value should have. An optional type accepts `nil`.
    /// - Returns: The value.
    /// - Throws: The promise's error, or ``AYPromiseError/typeMismatch(expected:actual:)`` if the
    ///   value is not a `Type`.
    public func value<Value: Sendable>(as valueType: Value.Type) async throws -> Value {
        let value = try await self.value
        if let typed = value as? Value { return typed }
        // `nil` as `Value?` is a successful cast above only when `Value` is itself optional.
        throw AYPromiseError.typeMismatch(
            expected: "\(Value.self)",
            actual: value.map { "\(type(of: $0))" } ?? "nil"
        )
    }
}
