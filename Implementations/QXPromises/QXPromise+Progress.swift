public import Dispatch
import PromiseRuntime

/// A progress report: the original's `ProgressHandler(proportion, value)` arguments.
public struct QXProgress: Sendable {
    /// How far the work is, from 0 to 1.
    public let proportion: Double
    /// A partial value, if the work has one (say, the bytes so far).
    public let value: PromiseValue

    /// Makes a report.
    public init(proportion: Double, value: PromiseValue) {
        self.proportion = proportion
        self.value = value
    }
}

extension QXPromise {
    /// Calls `handler` on `queue` with each progress report, until this promise settles.
    ///
    /// Progress is reported by the work (``QXResolver/progress(_:_:)``) into its promise's
    /// observable `progress` key, and propagates down a chain: a link observes the `progress` key
    /// of the promise it observes and republishes it. Forwarding is switched on lazily, for the
    /// links between a promise with a handler and the head of its chain, so chains without
    /// progress handlers pay nothing for it. Each forwarding step is a hop on the link's callback
    /// queue (no recursion along the chain), so on a concurrent queue reports can arrive out of
    /// order. Once the promise's `state` is settled its `progress` key no longer changes, and
    /// `handler` is no longer called (a report still in flight is dropped).
    ///
    /// ```swift
    /// download(url)
    ///     .then { data in decode(data) }
    ///     .progress { proportion, _ in bar.value = proportion }
    /// ```
    ///
    /// - Parameters:
    ///   - queue: Where `handler` runs.
    ///   - handler: Called with the proportion (0...1) and the partial value.
    /// - Returns: This promise, to keep chaining.
    @discardableResult
    public func progress(
        on queue: DispatchQueue = defaultQueue,
        _ handler: @escaping @Sendable (_ proportion: Double, _ value: PromiseValue) -> Void
    ) -> QXPromise {
        let observation = observe(\.progress, options: [.new]) { promise, change in
            guard let report = change.newValue ?? nil else { return }
            queue.async {
                // Checked again on `queue`: a report stored just before the promise settled may
                // be dispatched after a block that saw it settled; it is dropped then, so on a
                // serial queue no report follows the promise's settlement.
                guard promise.state == .pending else { return }
                handler(report.proportion, report.value)
            }
        }
        guard core.withLock({ $0.keepUntilSettled(observation) }) else {
            observation.invalidate()
            return self
        }
        startForwardingProgress()
        return self
    }

    /// Switches progress forwarding on for this promise and each promise up the chain, in a loop.
    private func startForwardingProgress() {
        var link: QXPromise? = self
        while let current = link {
            guard let source = current.core.withLock({ $0.startForwardingProgress() }) else { return }
            current.subscribeToProgress(of: source)
            link = source
        }
    }

    /// Called when this promise starts following `source` and forwards progress.
    func forwardProgress(from source: QXPromise) {
        subscribeToProgress(of: source)
        var link: QXPromise? = source
        while let current = link {
            guard let next = current.core.withLock({ $0.startForwardingProgress() }) else { return }
            current.subscribeToProgress(of: next)
            link = next
        }
    }

    private func subscribeToProgress(of source: QXPromise) {
        let queue = callbackQueue
        let observation = source.observe(\.progress, options: [.new]) { [weak self] _, change in
            guard let self, let report = change.newValue ?? nil else { return }
            queue.async { self.publishProgress(report.proportion, report.value) }
        }
        if !core.withLock({ $0.keepUntilSettled(observation) }) { observation.invalidate() }
    }

    /// Stores a report in the `progress` key, which notifies its observers; only while the
    /// promise is pending, checked under its lock together with the store, so `progress` never
    /// changes once the promise is seen settled.
    func publishProgress(_ proportion: Double, _ value: PromiseValue) {
        guard !proportion.isNaN else { return }
        let report = QXProgress(proportion: min(max(proportion, 0), 1), value: value)
        if let (observers, old) = core.withLock({ $0.progressPriors() }) {
            for observer in observers { observer.deliver(self, .prior(old: old)) }
        }
        guard let (observers, old, new) = core.withLock({ $0.setProgress(report) }) else { return }
        for observer in observers { observer.deliver(self, .setting(old: old, new: new)) }
    }
}
