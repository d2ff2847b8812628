public import Dispatch

// Turns completion-handler APIs into promises. Each `wrap` runs `work` at once on `queue`, passing
// a handler; the first call of the handler settles the promise, later calls are ignored, and a
// throw from `work` rejects. An `Error` argument that is not `nil` always wins over a value.
//
// ```swift
// func fetch(_ id: Int, completion: @escaping @Sendable (User?, Error?) -> Void) { ... }
// let user = wrap { handler in fetch(42, completion: handler) }  // FBLPromise<User?>
// ```

/// Wraps an API whose handler takes no arguments: the promise fulfils when it is called.
public func wrap(
    on queue: DispatchQueue = FBLPromise<Void>.defaultQueue,
    _ work: @escaping @Sendable (_ handler: @escaping @Sendable () -> Void) throws -> Void
) -> FBLPromise<Void> {
    FBLPromise<Void>(on: queue) { fulfill, _ in try work { fulfill(()) } }
}

/// Wraps an API whose handler takes a value.
public func wrap<Value: Sendable>(
    on queue: DispatchQueue = FBLPromise<Value>.defaultQueue,
    _ work: @escaping @Sendable (_ handler: @escaping @Sendable (Value) -> Void) throws -> Void
) -> FBLPromise<Value> {
    FBLPromise<Value>(on: queue) { fulfill, _ in try work(fulfill) }
}

/// Wraps an API whose handler takes an optional value; `nil` fulfils with `nil`.
public func wrap<Value: Sendable>(
    on queue: DispatchQueue = FBLPromise<Value?>.defaultQueue,
    _ work: @escaping @Sendable (_ handler: @escaping @Sendable (Value?) -> Void) throws -> Void
) -> FBLPromise<Value?> {
    FBLPromise<Value?>(on: queue) { fulfill, _ in try work(fulfill) }
}

/// Wraps an API whose handler takes an optional error: rejects with it, or fulfils if `nil`.
public func wrap(
    on queue: DispatchQueue = FBLPromise<Void>.defaultQueue,
    _ work: @escaping @Sendable (_ handler: @escaping @Sendable ((any Error)?) -> Void) throws -> Void
) -> FBLPromise<Void> {
    FBLPromise<Void>(on: queue) { fulfill, reject in
        try work { error in
            if let error { reject(error) } else { fulfill(()) }
        }
    }
}

/// Wraps an API whose handler takes an optional value and an optional error.
public func wrap<Value: Sendable>(
    on queue: DispatchQueue = FBLPromise<Value?>.defaultQueue,
    _ work: @escaping @Sendable (_ handler: @escaping @Sendable (Value?, (any Error)?) -> Void) throws -> Void
) -> FBLPromise<Value?> {
    FBLPromise<Value?>(on: queue) { fulfill, reject in
        try work { value, error in
            if let error { reject(error) } else { fulfill(value) }
        }
    }
}

/// Wraps an API whose handler takes an optional error and an optional value.
public func wrap<Value: Sendable>(
    on queue: DispatchQueue = FBLPromise<Value?>.defaultQueue,
    _ work: @escaping @Sendable (_ handler: @escaping @Sendable ((any Error)?, Value?) -> Void) throws -> Void
) -> FBLPromise<Value?> {
    FBLPromise<Value?>(on: queue) { fulfill, reject in
        try work { error, value in
            if let error { reject(error) } else { fulfill(value) }
        }
    }
}

/// Wraps an API whose handler takes a value and an optional error.
public func wrap<Value: Sendable>(
    on queue: DispatchQueue = FBLPromise<Value>.defaultQueue,
    _ work: @escaping @Sendable (_ handler: @escaping @Sendable (Value, (any Error)?) -> Void) throws -> Void
) -> FBLPromise<Value> {
    FBLPromise<Value>(on: queue) { fulfill, reject in
        try work { value, error in
            if let error { reject(error) } else { fulfill(value) }
        }
    }
}

/// Wraps an API whose handler takes an optional error and a value.
public func wrap<Value: Sendable>(
    on queue: DispatchQueue = FBLPromise<Value>.defaultQueue,
    _ work: @escaping @Sendable (_ handler: @escaping @Sendable ((any Error)?, Value) -> Void) throws -> Void
) -> FBLPromise<Value> {
    FBLPromise<Value>(on: queue) { fulfill, reject in
        try work { error, value in
            if let error { reject(error) } else { fulfill(value) }
        }
    }
}

/// Wraps an API whose handler takes two optional values and an optional error: rejects with the
/// error, or fulfils with both values.
public func wrap<Value1: Sendable, Value2: Sendable>(
    on queue: DispatchQueue = FBLPromise<(Value1?, Value2?)>.defaultQueue,
    _ work:
        @escaping @Sendable (
            _ handler: @escaping @Sendable (Value1?, Value2?, (any Error)?) -> Void
        ) throws -> Void
) -> FBLPromise<(Value1?, Value2?)> {
    FBLPromise<(Value1?, Value2?)>(on: queue) { fulfill, reject in
        try work { value1, value2, error in
            if let error { reject(error) } else { fulfill((value1, value2)) }
        }
    }
}

/// Wraps an API whose handler takes a `Result` (beyond the original, which predates `Result`).
public func wrap<Value: Sendable>(
    on queue: DispatchQueue = FBLPromise<Value>.defaultQueue,
    _ work: @escaping @Sendable (_ handler: @escaping @Sendable (Result<Value, any Error>) -> Void) throws -> Void
) -> FBLPromise<Value> {
    FBLPromise<Value>(on: queue) { fulfill, reject in
        try work { result in
            switch result {
            case .success(let value): fulfill(value)
            case .failure(let error): reject(error)
            }
        }
    }
}
