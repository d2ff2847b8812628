public import PromiseInterface

/// What an operator property returns: call it with a block to chain that block and get the next
/// promise, as the original's block properties are called (`promise.then(^(id value){ ... })`).
///
/// ```swift
/// promise.then { value in "\(value!)!" }   // one argument: the value (or the error, for catch)
/// promise.then { print("done") }           // no argument, no return value: fulfils with nil
/// promise.catch { error in fallback }      // the block's return value decides the next promise
/// ```
///
/// A block may take the input or nothing, may return anything `Sendable` or nothing, and may
/// throw. What it returns is resolved into the next promise: an ``AYPromise`` is adopted, any
/// other `Thenable` assimilated, an `Error` value rejects, anything else (`nil` and `Void`
/// included) fulfils; a throw rejects with the thrown error.
///
/// Why four `callAsFunction` overloads: the generic ones let a block's return type be inferred,
/// including a multi-statement block with no `return` (`Void`, which fulfils with `nil`); the
/// `PromiseValue` ones, `@_disfavoredOverload` so they are only chosen when the generic ones
/// cannot infer a type, accept `nil` and blocks whose `return`s have different types.
public struct AYOperator<Input: Sendable>: Sendable {
    /// Chains a block that takes the input; every overload ends here.
    let attach: @Sendable (@escaping @Sendable (Input) throws -> PromiseValue) -> AYPromise

    /// Chains a block that takes the input and returns a value of an inferred type (`Void` for a
    /// block that returns nothing).
    ///
    /// - Parameter block: Runs once, on the operator's queue, with the input.
    /// - Returns: The next promise, resolved with what `block` returns or rejected with what it
    ///   throws.
    @discardableResult
    public func callAsFunction<Result: Sendable>(
        _ block: @escaping @Sendable (Input) throws -> Result
    ) -> AYPromise {
        attach { input in try block(input) }
    }

    /// Chains a block that takes no argument (the input is dropped).
    @discardableResult
    public func callAsFunction<Result: Sendable>(
        _ block: @escaping @Sendable () throws -> Result
    ) -> AYPromise {
        attach { _ in try block() }
    }

    /// Chains a block that takes the input and returns a dynamic value (`nil`, or `return`s of
    /// several types).
    @_disfavoredOverload
    @discardableResult
    public func callAsFunction(_ block: @escaping @Sendable (Input) throws -> PromiseValue) -> AYPromise {
        attach(block)
    }

    /// Chains a block that takes no argument and returns a dynamic value.
    @_disfavoredOverload
    @discardableResult
    public func callAsFunction(_ block: @escaping @Sendable () throws -> PromiseValue) -> AYPromise {
        attach { _ in try block() }
    }
}

/// What an operator property that needs an argument returns (`thenOn`, `catchOn`, `thenDelay`):
/// call it with the argument and a block, as the original's `promise.thenOn(queue, ^{ ... })`.
///
/// ```swift
/// promise.thenOn(imageQueue) { data in decode(data) }
/// promise.thenDelay(0.5) { showHint() }
/// ```
///
/// The block rules are those of ``AYOperator``.
public struct AYOperatorTakingArgument<Argument: Sendable, Input: Sendable>: Sendable {
    /// The operator for one argument value.
    let make: @Sendable (Argument) -> AYOperator<Input>

    /// Chains a block that takes the input and returns a value of an inferred type.
    ///
    /// - Parameters:
    ///   - argument: The operator's argument (a queue, a delay in seconds).
    ///   - block: Runs once, as the operator says, with the input.
    /// - Returns: The next promise.
    @discardableResult
    public func callAsFunction<Result: Sendable>(
        _ argument: Argument,
        _ block: @escaping @Sendable (Input) throws -> Result
    ) -> AYPromise {
        make(argument)(block)
    }

    /// Chains a block that takes no argument.
    @discardableResult
    public func callAsFunction<Result: Sendable>(
        _ argument: Argument,
        _ block: @escaping @Sendable () throws -> Result
    ) -> AYPromise {
        make(argument)(block)
    }

    /// Chains a block that takes the input and returns a dynamic value.
    @_disfavoredOverload
    @discardableResult
    public func callAsFunction(
        _ argument: Argument,
        _ block: @escaping @Sendable (Input) throws -> PromiseValue
    ) -> AYPromise {
        make(argument)(block)
    }

    /// Chains a block that takes no argument and returns a dynamic value.
    @_disfavoredOverload
    @discardableResult
    public func callAsFunction(
        _ argument: Argument,
        _ block: @escaping @Sendable () throws -> PromiseValue
    ) -> AYPromise {
        make(argument)(block)
    }
}
