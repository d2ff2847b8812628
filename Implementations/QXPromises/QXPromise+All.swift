public import Dispatch
import PromiseInterface

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
            input.whenSettled(on: queue) { outcome in gather.record(outcome, at: index) }
        }
        return promise
    }
}

/// The values gathered so far by one `all` call.
private final class QXAllGather: Sendable {
    private struct State {
        var values: [PromiseValue]
        var remaining: Int
    }

    /// Guards the values and the count of inputs still pending.
    private let state: PromiseMutex<State>
    private let resolver: QXResolver

    init(count: Int, resolver: QXResolver) {
        state = PromiseMutex(State(values: Array(repeating: nil, count: count), remaining: count))
        self.resolver = resolver
    }

    func record(_ outcome: QXOutcome, at index: Int) {
        switch outcome {
        case .rejected(let error):
            resolver.reject(error)
        case .fulfilled(let value):
            let finished: [PromiseValue]? = state.withLock { state in
                state.values[index] = value
                state.remaining -= 1
                return state.remaining == 0 ? state.values : nil
            }
            if let finished { resolver.fulfill(finished) }
        }
    }
}
