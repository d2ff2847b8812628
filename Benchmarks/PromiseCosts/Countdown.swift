public import Dispatch
public import Synchronization

/// Counts callbacks down to zero, sums the values they hand in, and wakes the waiting thread at
/// zero: how an operation waits for its callbacks without allocating (a tick allocates nothing).
///
/// `compare`'s user blocks tick it too, so every contender pays the same two atomic operations
/// per unit. Inlinable, so that a tick costs the same in every module that uses it.
///
/// ```swift
/// let done = Countdown(inputs.count)
/// for input in inputs { promise(input).then { done.tick($0) } }
/// let sum = done.sum(waitingAtMost: .seconds(120))  // nil if a callback never came
/// ```
public final class Countdown: Sendable {
    @usableFromInline let remaining: Atomic<Int>
    @usableFromInline let total = Atomic<Int>(0)
    @usableFromInline let done = DispatchSemaphore(value: 0)

    /// Expects `count` ticks; with 0 the countdown is already done.
    public init(_ count: Int) {
        remaining = Atomic(count)
        if count == 0 { done.signal() }
    }

    /// Counts one callback that produced `value`. Any thread may tick.
    @inlinable
    public func tick(_ value: Int = 0) {
        total.add(value, ordering: .relaxed)
        if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { done.signal() }
    }

    /// Waits for the last tick, at most `timeout`.
    ///
    /// - Returns: The sum of the ticked values, or `nil` if the last tick did not come in time.
    public func sum(waitingAtMost timeout: DispatchTimeInterval) -> Int? {
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        return total.load(ordering: .relaxed)
    }
}
