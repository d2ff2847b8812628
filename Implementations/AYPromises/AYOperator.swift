public import Dispatch
import PromiseRuntime

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
///
/// ## Cost
/// An operator is a plain value (the promise and its `AYRoute`), and the block is stored as
/// written, so chaining a block allocates the next promise and one handler, nothing else: a
/// closure stored in the operator, or one wrapping the block, would be one more allocation per
/// link (`AllocationBudgetTests` pins the count).
public struct AYOperator<Input: Sendable>: Sendable {
    /// The promise the block is chained to.
    @usableFromInline let source: AYPromise
    /// Where and with what the block runs.
    @usableFromInline let route: AYRoute<Input>

    /// Chains a block that takes the input and returns a value of an inferred type (`Void` for a
    /// block that returns nothing).
    ///
    /// - Parameter block: Runs once, on the operator's queue, with the input.
    /// - Returns: The next promise, resolved with what `block` returns or rejected with what it
    ///   throws.
    @inlinable @discardableResult
    public func callAsFunction<Result: Sendable>(
        _ block: @escaping @Sendable (Input) throws -> Result
    ) -> AYPromise {
        source.chain(route, AYTypedBlock.takingInput(block))
    }

    /// Chains a block that takes no argument (the input is dropped).
    @inlinable @discardableResult
    public func callAsFunction<Result: Sendable>(
        _ block: @escaping @Sendable () throws -> Result
    ) -> AYPromise {
        source.chain(route, AYTypedBlock<Input, Result>.takingNothing(block))
    }

    /// Chains a block that takes the input and returns a dynamic value (`nil`, or `return`s of
    /// several types).
    @_disfavoredOverload
    @inlinable @discardableResult
    public func callAsFunction(_ block: @escaping @Sendable (Input) throws -> PromiseValue) -> AYPromise {
        source.chain(route, AYDynamicBlock.takingInput(block))
    }

    /// Chains a block that takes no argument and returns a dynamic value.
    @_disfavoredOverload
    @inlinable @discardableResult
    public func callAsFunction(_ block: @escaping @Sendable () throws -> PromiseValue) -> AYPromise {
        source.chain(route, AYDynamicBlock<Input>.takingNothing(block))
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
    /// The promise the block is chained to.
    @usableFromInline let source: AYPromise
    /// The route for one argument value, or the error for an argument the operator cannot take.
    /// A function without captures, so that the operator costs no allocation.
    @usableFromInline let route: @Sendable (Argument) throws(AYPromiseError) -> AYRoute<Input>

    /// Chains `block` on the route for `argument`; an invalid argument rejects the next promise
    /// at once.
    @inlinable
    func chain<Block: AYChainedBlock>(_ argument: Argument, _ block: Block) -> AYPromise
    where Block.Input == Input {
        do {
            return source.chain(try route(argument), block)
        } catch {
            return AYPromise(settled: .failure(error))
        }
    }

    /// Chains a block that takes the input and returns a value of an inferred type.
    ///
    /// - Parameters:
    ///   - argument: The operator's argument (a queue, a delay in seconds).
    ///   - block: Runs once, as the operator says, with the input.
    /// - Returns: The next promise.
    @inlinable @discardableResult
    public func callAsFunction<Result: Sendable>(
        _ argument: Argument,
        _ block: @escaping @Sendable (Input) throws -> Result
    ) -> AYPromise {
        chain(argument, AYTypedBlock.takingInput(block))
    }

    /// Chains a block that takes no argument.
    @inlinable @discardableResult
    public func callAsFunction<Result: Sendable>(
        _ argument: Argument,
        _ block: @escaping @Sendable () throws -> Result
    ) -> AYPromise {
        chain(argument, AYTypedBlock<Input, Result>.takingNothing(block))
    }

    /// Chains a block that takes the input and returns a dynamic value.
    @_disfavoredOverload
    @inlinable @discardableResult
    public func callAsFunction(
        _ argument: Argument,
        _ block: @escaping @Sendable (Input) throws -> PromiseValue
    ) -> AYPromise {
        chain(argument, AYDynamicBlock.takingInput(block))
    }

    /// Chains a block that takes no argument and returns a dynamic value.
    @_disfavoredOverload
    @inlinable @discardableResult
    public func callAsFunction(
        _ argument: Argument,
        _ block: @escaping @Sendable () throws -> PromiseValue
    ) -> AYPromise {
        chain(argument, AYDynamicBlock<Input>.takingNothing(block))
    }
}

/// Where an operator's block runs and what it runs with: the part of an operator that does not
/// depend on the block (`then` and `thenOn` differ only in `queue`; `then` and `catch` in
/// `input`).
@usableFromInline
struct AYRoute<Input: Sendable>: Sendable {
    /// The queue the outcome is handed to, and the block runs on.
    @usableFromInline let queue: DispatchQueue
    /// What the block runs with for an outcome, or ``AYBlockInput/passOn`` when the operator
    /// passes the outcome on to the next promise unchanged (a rejection reaching `then`). A
    /// function without captures (but `thenDelay`'s), so that a route costs no allocation.
    @usableFromInline let input: @Sendable (AYOutcome) -> AYBlockInput<Input>
}

/// What an ``AYRoute`` makes of an outcome.
@usableFromInline
enum AYBlockInput<Input: Sendable> {
    /// Run the block with this input.
    case run(Input)
    /// Run the block with this input, this many seconds later (`thenDelay`).
    case runAfter(seconds: Double, Input)
    /// Skip the block: the next promise settles as this one did.
    case passOn
}

extension AYRoute where Input == PromiseValue {
    /// `then`'s route: the block runs with the value; a rejection passes on.
    static func then(on queue: DispatchQueue) -> AYRoute {
        AYRoute(queue: queue) { outcome in
            guard case .success(let value) = outcome else { return .passOn }
            return .run(value)
        }
    }

    /// `thenDelay`'s route: `then` on the main queue, `seconds` after the value arrives. The
    /// only route that captures (the delay): the delay costs nothing to the other operators.
    ///
    /// - Throws: ``AYPromiseError/invalidArgument(_:)`` for a negative, NaN or infinite delay.
    static func thenDelay(_ seconds: Double) throws(AYPromiseError) -> AYRoute {
        guard seconds.isFinite, seconds >= 0 else {
            throw .invalidArgument("thenDelay needs a finite, non-negative number of seconds; got \(seconds)")
        }
        return AYRoute(queue: .main) { outcome in
            guard case .success(let value) = outcome else { return .passOn }
            return .runAfter(seconds: seconds, value)
        }
    }

    /// `always`' route: the block runs on the main queue with the value or the error.
    static var always: AYRoute {
        AYRoute(queue: .main) { outcome in
            switch outcome {
            case .success(let value): return .run(value)
            case .failure(let error): return .run(error)
            }
        }
    }
}

extension AYRoute where Input == any Error {
    /// `catch`'s route: the block runs with the error; a fulfilment passes on.
    static func `catch`(on queue: DispatchQueue) -> AYRoute {
        AYRoute(queue: queue) { outcome in
            guard case .failure(let error) = outcome else { return .passOn }
            return .run(error)
        }
    }
}

/// A chained block, stored as the user wrote it, and how its result becomes a dynamic value.
///
/// Two conformers keep the two kinds of result apart without a wrapping closure: a block of an
/// inferred type has its result wrapped into a `PromiseValue` once, a block that already returns
/// one hands it over as it is (wrapping it again would hide a `nil` inside an optional).
@usableFromInline
protocol AYChainedBlock: Sendable {
    associatedtype Input: Sendable
    /// Runs the block with `input` and returns what it returns, as a dynamic value.
    func run(_ input: Input) throws -> PromiseValue
}

/// A block whose return type is inferred.
@usableFromInline
enum AYTypedBlock<Input: Sendable, Result: Sendable>: AYChainedBlock {
    case takingInput(@Sendable (Input) throws -> Result)
    case takingNothing(@Sendable () throws -> Result)

    @inlinable
    func run(_ input: Input) throws -> PromiseValue {
        switch self {
        case .takingInput(let block): return try block(input)
        case .takingNothing(let block): return try block()
        }
    }
}

/// A block that returns a dynamic value.
@usableFromInline
enum AYDynamicBlock<Input: Sendable>: AYChainedBlock {
    case takingInput(@Sendable (Input) throws -> PromiseValue)
    case takingNothing(@Sendable () throws -> PromiseValue)

    @inlinable
    func run(_ input: Input) throws -> PromiseValue {
        switch self {
        case .takingInput(let block): return try block(input)
        case .takingNothing(let block): return try block()
        }
    }
}
