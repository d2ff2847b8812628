public import Dispatch
public import Synchronization

extension Promise {
    /// A promise that settles as this one does, or is rejected with `failure` if this one is
    /// still pending after `interval`; this one is then cancelled where no one else waits for it.
    ///
    /// ```swift
    /// let user = loadUser(id: "42").timeout(after: .seconds(5), failure: APIError.timedOut)
    /// ```
    ///
    /// - Parameters:
    ///   - interval: How long to wait.
    ///   - queue: Where the timer fires (the main queue by default).
    ///   - failure: The failure of a timeout, made when the timer fires.
    @inlinable
    public func timeout(
        after interval: DispatchTimeInterval, on queue: DispatchQueue = Drain.mainQueue,
        failure: @escaping @autoclosure @Sendable () -> Failure
    ) -> Promise {
        let link = PassLink(input: box)
        link.attach()
        // Weakly: a promise that settled in time is freed with its callbacks, not kept until the
        // deadline.
        queue.asyncAfter(deadline: .now() + interval) { [weak link] in link?.settleAndWithdraw(.rejected(failure())) }
        return Promise(box: link)
    }
}

extension Promise where Failure == any Error {
    /// ``timeout(after:on:failure:)`` for untyped failures: rejects with ``PromiseTimeout``.
    public func timeout(after interval: DispatchTimeInterval, on queue: DispatchQueue = Drain.mainQueue) -> Promise {
        timeout(after: interval, on: queue, failure: PromiseTimeout(interval: interval))
    }
}

/// What ``Promise/timeout(after:on:)`` rejects with.
public struct PromiseTimeout: Error, Equatable {
    /// How long the promise was waited for.
    public let interval: DispatchTimeInterval

    public init(interval: DispatchTimeInterval) {
        self.interval = interval
    }
}

/// A link that settles as its input does, with no queue and no step of its own: what a timer or
/// another outside event can settle first.
@usableFromInline
final class PassLink<Value: Sendable, Failure: Error>: Link<Value, Failure, Value, Failure>, @unchecked Sendable {
    @inlinable
    init(input: PromiseBox<Value, Failure>) {
        super.init(input: input, queue: nil) { node, operation, drain in
            let link = unsafeDowncast(node, to: PassLink.self)
            guard operation == .run else { return link.destroyOutcome() }
            link.runStep { outcome in link.complete(outcome, in: drain!) }
        }
    }
}

extension PromiseBox {
    /// Settles with `outcome` if its outcome is still to come, from outside a drain, and withdraws
    /// from the promises it waited on: they are cancelled where no one else waits for them. A
    /// promise that forwards settles its root instead, and lets its own work go.
    @inlinable
    final func settleAndWithdraw(_ outcome: Outcome) {
        let cancelled = outcome.isCancelled
        let settled = withControl {
            control -> (waiters: Unmanaged<Node>?, upstreams: CancellationWalk.Upstreams, root: Unmanaged<Node>?)? in
            switch control.phase {
            case .pending:
                if !cancelled { storeOutcome(outcome) }
                self.settled.store(Settled.state(cancelled: cancelled), ordering: .releasing)
                let waiters = control.settle(cancelled: cancelled)
                let upstreams = upstreamsLocked()
                upstreams.pin()
                return (waiters, upstreams, nil)
            case .forwarded:
                let root = control.waiters
                control.waiters = nil
                control.phase = .cancelled
                self.settled.store(Settled.cancelled, ordering: .releasing)
                let upstreams = upstreamsLocked()
                upstreams.pin()
                return (nil, upstreams, root)
            case .settled, .cancelled, .abandoned:
                return nil
            }
        }
        guard let settled else { return }
        // The inputs first: settling runs user code (cancellation handlers, a local drain), which
        // must not run while the walk holds their pins.
        CancellationWalk.withdraw(pinned: settled.upstreams)
        if let root = settled.root {
            unsafeDowncast(root.takeRetainedValue(), to: PromiseBox.self).complete(outcome)
        }
        if let waiters = settled.waiters {
            Drain.withCurrent { drain in handOut(waiters, cancelled: cancelled, in: drain) }
        }
    }
}
