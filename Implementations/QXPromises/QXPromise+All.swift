public import Dispatch
import PromiseRuntime

extension QXPromise {
    /// Waits for every promise to be fulfilled and fulfils with their values in input order (a
    /// `[PromiseValue]`); rejects with the first error as soon as any promise is rejected.
    ///
    /// Each input is watched through its `state` key, like every QX chain, and its outcome is
    /// counted on `queue` (one hop per input, so nested `all`s of any depth settle without
    /// recursion). An empty input fulfils with `[]` at once. Counting down, not rescanning, so n inputs cost O(n).
    ///
    /// ```swift
    /// QXPromise.all(urls.map(download)).then { images in show(images) }
    /// ```
    ///
    /// - Parameters:
    ///   - queue: The returned promise's callback queue.
    ///   - promises: The promises to wait for.
    /// - Returns: A promise of every value, in input order.
    public static func all(on queue: DispatchQueue = defaultQueue, _ promises: [QXPromise]) -> QXPromise {
        guard !promises.isEmpty else { return QXPromise(fulfilledWith: [PromiseValue](), on: queue) }
        let (promise, resolver) = QXPromise.pending(on: queue)
        let gather = QXAllGather(count: promises.count, resolver: resolver)
        for (index, input) in promises.enumerated() {
            // Recorded on `queue`, not on the settling thread: settling the combined promise
            // notifies its own observers at once, so an `all` of an `all` of ... would otherwise
            // settle every level inside the one before, one stack frame set per level.
            input.whenSettled { outcome in queue.async { gather.record(outcome, at: index) } }
        }
        return promise
    }
}

/// The values gathered so far by one `all` call.
private final class QXAllGather: Sendable {
    private struct State {
        var values: [PromiseValue]
        var remaining: Int
        /// `nil` once the combined promise is settled: after the first rejection (or the last
        /// value), later outcomes are ignored and nothing gathered is kept.
        var resolver: QXResolver?
    }

    /// What an outcome leads to, computed under the lock and done after it.
    private enum Action {
        case none
        case reject(QXResolver, any Error)
        case fulfill(QXResolver, [PromiseValue])
    }

    /// Guards the values, the count of inputs still pending and the resolver.
    private let state: PromiseMutex<State>

    init(count: Int, resolver: QXResolver) {
        state = PromiseMutex(
            State(values: Array(repeating: nil, count: count), remaining: count, resolver: resolver)
        )
    }

    func record(_ outcome: QXOutcome, at index: Int) {
        let action: Action = state.withLock { state in
            guard let resolver = state.resolver else { return .none }
            switch outcome {
            case .rejected(let error):
                // The first rejection decides: the values gathered so far, and the resolver,
                // are let go at once, not kept until the slowest input settles.
                state.resolver = nil
                state.values = []
                return .reject(resolver, error)
            case .fulfilled(let value):
                state.values[index] = value
                state.remaining -= 1
                guard state.remaining == 0 else { return .none }
                state.resolver = nil
                defer { state.values = [] }
                return .fulfill(resolver, state.values)
            }
        }
        switch action {
        case .none: break
        case .reject(let resolver, let error): resolver.reject(error)
        case .fulfill(let resolver, let values): resolver.fulfill(values)
        }
    }
}
