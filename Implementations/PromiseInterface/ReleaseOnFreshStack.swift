public import Dispatch

/// Frees `value` from a global-queue block, on a fresh stack, never on the caller's.
///
/// A pending promise that is freed still holds the next links of its chain (its observers), and
/// they hold the links after them. Freed from its `deinit`, each link would free the next from its
/// own `deinit`, one set of stack frames per link, and dropping a pending 100,000-link chain would
/// overflow the stack. Handed to this function, each link is freed on a fresh stack, one per hop.
///
/// The value must be *moved* in, with `consume`, or passed as a temporary:
///
/// ```swift
/// guard let observers = machine.withLock({ $0.abandon() }) else { return }
/// releaseOnFreshStack(consume observers)
/// ```
///
/// Capturing a copy instead (`queue.async { withExtendedLifetime(observers) {} }`) is not enough:
/// the caller's own binding is released at the end of its scope, and when the block has already
/// run by then (easy on a loaded machine) that release is the last one, and the chain is freed on
/// the caller's stack after all. Every design did that until a dropped 100,000-link QX chain
/// overflowed the stack in about one test run in seven (Reports/reliability.md).
///
/// - Parameter value: What to free; the block holds the only reference the caller gave up.
@inlinable
public func releaseOnFreshStack<Value: Sendable>(_ value: consuming Value) {
    DispatchQueue.global().async { [value = consume value] in withExtendedLifetime(value) {} }
}
