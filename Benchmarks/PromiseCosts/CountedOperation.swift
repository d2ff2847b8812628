public import Dispatch
import Foundation

/// What one unit of an operation may cost, stated beside the operation, so that a library's
/// costs live in its own code. Change a budget in the commit that moves it, and say why there.
///
/// A `nil` budget is not checked: the runners print the count, so a first run tells what to
/// write.
public struct Budget: Sendable, Equatable {
    /// Allocations per unit, exactly, as the allocation runner counts them in the build it runs
    /// in (`swift build` and `swift test` make a debug build, which allocates more than a release
    /// build: a debug build specialises no generic code and allocates closure contexts besides).
    public var allocations: Int?
    /// Bytes requested per pending promise, in that build, met within
    /// ``AllocationCount/byteTolerance``; only for an operation that leaves promises pending.
    public var pendingBytes: Int?
    /// Instructions per unit in a release build, as callgrind counts them on x86_64 Linux with
    /// the toolchain that made the budget, met within ``InstructionCounts/tolerance``; elsewhere
    /// none is checked.
    public var instructions: Int?

    public init(allocations: Int? = nil, pendingBytes: Int? = nil, instructions: Int? = nil) {
        self.allocations = allocations
        self.pendingBytes = pendingBytes
        self.instructions = instructions
    }
}

/// One counted operation: `run(units, start, stop)` sets up, calls `start`, does `units` units of
/// the operation, calls `stop`, then tears down.
///
/// Both runners run it at two sizes and divide the difference of the counts by the difference
/// of the sizes, so that one-time costs (a queue's first block, the runtime's caches) cancel and
/// what is left is the cost of one more unit. They count different spans:
/// - the allocation runner counts the allocations between `start` and `stop`: what the operation
///   allocates (and, for a pending promise, what it holds while it waits);
/// - the instruction runner counts the whole `run`, since callgrind counts the process: a unit's
///   whole life, made, registered, settled, its callback run, freed.
///
/// What is counted between `start` and `stop` must not depend on thread timing, or the count
/// would not be exact. Settling and running callbacks on one serial queue is exact (a chain
/// link: each link's callback dispatches the next from the thread draining the queue). Settling
/// from another thread is not: GCD's per-thread caches of queued work then refill from the heap
/// depending on which worker ran what. Where another thread settles and the queue runs many
/// callbacks, hold the queue while they queue (``Dispatch/DispatchQueue/holding(_:)``), so that
/// one worker drains them in one go.
///
/// ```swift
/// let chainLink = CountedOperation(library: "MyPromise", operation: "chain link", budget: Budget(allocations: 3)) {
///     units, start, stop in
///     let done = Countdown(1)
///     start()
///     let (root, resolve) = MyPromise<Int>.pending()
///     var last = root
///     for _ in 0..<units { last = last.then(on: queue) { $0 + 1 } }
///     last.then(on: queue) { _ in done.tick() }
///     resolve(0)
///     done.wait()
///     stop()
/// }
/// ```
///
/// ``standard(_:budgets:)`` makes the five standard operations from a ``CostAdapter``; write a
/// `CountedOperation` for an operation of your library's own.
public struct CountedOperation: Sendable {
    /// The library or design the operation belongs to: the first word of its name.
    public let library: String
    /// The operation: "chain link".
    public let operation: String
    /// The operation of raw GCD's this one is compared with in the instruction table (see
    /// ``RawGCD``), or `nil` for none.
    public let comparedWith: String?
    /// What one unit may cost.
    public let budget: Budget
    /// Runs `units` units between the two calls: `run(units, start, stop)`.
    public let run: @Sendable (Int, () -> Void, () -> Void) -> Void

    /// - Parameters:
    ///   - library: The library's name, as the tables show it: "MyPromise".
    ///   - operation: What one unit is: "chain link".
    ///   - comparedWith: Raw GCD's operation to compare with: by default `operation` itself when
    ///     raw GCD has one of that name ("chain link", "fan-out observer"), and "chain link" for
    ///     an "error link".
    ///   - budget: What one unit may cost.
    ///   - run: Sets up, calls `start`, does `units` units, calls `stop`, tears down.
    public init(
        library: String, operation: String, comparedWith: String? = nil, budget: Budget,
        run: @escaping @Sendable (_ units: Int, _ start: () -> Void, _ stop: () -> Void) -> Void
    ) {
        self.library = library
        self.operation = operation
        self.comparedWith =
            comparedWith
            ?? (RawGCD.operationNames.contains(operation)
                ? operation
                : operation == StandardOperation.errorLink.rawValue ? StandardOperation.chainLink.rawValue : nil)
        self.budget = budget
        self.run = run
    }

    /// `"MyPromise chain link"`: the name the runners report and `--only` matches.
    public var name: String { "\(library) \(operation)" }
}

extension CountedOperation {
    /// "A pending promise with one `then`", as every library measures it: between `start` and
    /// `stop`, `units` times, `make` makes a pending promise and registers one callback on it
    /// that ticks `done` (the arrays that keep both are reserved before `start`); then every
    /// promise is settled with `queue` held, so that one worker drains the callbacks, and they are
    /// waited for.
    ///
    /// What it counts is what a promise holds while it waits: the bytes of its allocations are the
    /// pending promise's size (``Budget/pendingBytes``).
    ///
    /// Inlinable, so that it is specialised for the library's types where it is called: generic
    /// code run unspecialised would add its own instructions to every unit.
    @inlinable
    public static func pendingWithOneThen<Root, Then>(
        library: String, operation: String = StandardOperation.pendingWithOneThen.rawValue, budget: Budget,
        queue: DispatchQueue,
        make: @escaping @Sendable (_ done: Countdown) -> (root: Root, then: Then),
        settle: @escaping @Sendable (Root) -> Void
    ) -> CountedOperation {
        CountedOperation(library: library, operation: operation, budget: budget) { units, start, stop in
            let done = Countdown(units)
            var roots: [Root] = []
            var thens: [Then] = []
            roots.reserveCapacity(units)
            thens.reserveCapacity(units)
            start()
            for _ in 0..<units {
                let (root, then) = make(done)
                roots.append(root)
                thens.append(then)
            }
            stop()
            queue.holding { for root in roots { settle(root) } }
            done.wait()
            withExtendedLifetime(thens) {}
        }
    }
}

extension Countdown {
    /// Waits for the last tick; a lost callback ends the process (with a message) instead of
    /// hanging it, since the runners run operations in a process of their own.
    public func wait() {
        guard sum(waitingAtMost: .seconds(120)) != nil else {
            FileHandle.standardError.write(Data("\(CommandLine.arguments[0]): an operation timed out\n".utf8))
            exit(1)
        }
    }
}

extension DispatchQueue {
    /// Runs `body` with the queue suspended: the callbacks `body` queues wait, then drain in one
    /// go on one worker. Settled while a worker drains, how often that worker ran dry, parked and
    /// was woken again would depend on thread timing, and so would the count (fan-out observers
    /// moved by 6 % between two runs of one binary that way).
    @inlinable
    public func holding(_ body: () -> Void) {
        suspend()
        body()
        resume()
    }
}

/// The error an error link's chain is rejected with.
public struct CostError: Error {
    public init() {}
}
