public import Dispatch
import PromiseRuntime

// An experiment, not a design: `Floor-QN` (QNFloorTask.swift) with the storage of the parts of QN's
// contract that the floor leaves out, each in the form QN keeps it, to weigh the memory between QN
// and its floor (Reports/performance.md, "QN's memory against its floor"). Its behaviour is the
// floor's: a lazy `map` or `then` link, three outcomes, cancellation back along a weak link, callbacks
// on their queue, starts run in the floor's per-thread loop.
//
// What it stores that the floor does not, and which part of QN's contract each serves:
// - the outcome erased (`any Sendable`, 32 bytes and a tag), not an `Int`: a task of any result
//   type with a core that is not generic, so that its unspecialised code looks up no generic
//   metadata (a generic prototype spent 30 % of its chain's profile on those lookups);
// - a pointer to the rarely used state kept out of line and never allocated here (task IDs,
//   cancellation handlers, progress monitors, the awaited task the cycle check follows);
// - each observer's queue beside its callback (`nil` for callbacks that run on the finishing
//   thread, as the bridge to `await` needs), so that the continuation's observer captures only the
//   continuation and allocates no context, where the floor's captures its queue too and allocates;
// - a manual task's start block, run once when the task is first started;
// - a continuation's step of more than one kind (`map`, and `then`, which adopts the task its block
//   returns; QN has a third, the public step, at no further cost) and a weak reference to the task
//   it adopted, which a cancellation reaches once the step ran.
//
// What it still leaves out (behaviour, not storage): flat cancellation and release of long chains,
// the ordered hand-out under a concurrent finish, cancellation handlers and progress, the debug
// leak tracker.

/// Three outcomes, the value erased, as QN's core stores them.
public enum QNContractFloorOutcome: Sendable {
    case succeeded(any Sendable)
    case failed(any Error)
    case cancelled
}

/// The floor's task with the storage of QN's contract: a manual task is the subclass
/// ``QNContractFloorManual``, a continuation ``QNContractFloorLink``.
public class QNContractFloorTask: @unchecked Sendable {
    // @unchecked Sendable: the mutable state is `state`, guarded by its PromiseMutex; subclasses add
    // state that the same lock guards (a link's step and references), or that only `main()` and
    // `deinit` touch (a manual task's start block: `main()` runs at most once).

    /// A callback with the queue it runs on (`nil`: on the finishing thread).
    struct Observer: Sendable {
        let queue: DispatchQueue?
        let callback: @Sendable (QNContractFloorOutcome) -> Void

        func notify(_ outcome: QNContractFloorOutcome) {
            if let queue { queue.async { callback(outcome) } } else { callback(outcome) }
        }
    }

    enum Stage: UInt8 {
        case ready, running, finished
    }

    struct State {
        var outcome: QNContractFloorOutcome?
        var stage = Stage.ready
        /// A link's flag: it still holds its step.
        var holdsStep = false
        var first: Observer?
        var rest: [Observer] = []
        /// The out-of-line rest (IDs, cancellation handlers, monitors); never allocated here.
        var extras: AnyObject?
    }

    enum StartAction {
        case run, stored
        case deliver(QNContractFloorOutcome)
    }

    let state: PromiseMutex<State>

    init(holdsStep: Bool) {
        state = PromiseMutex(State(holdsStep: holdsStep))
    }

    /// Starts the work; overridden by the subclasses.
    func main() {}

    /// Starts the task (idempotent) and calls `completion` with its outcome, typed (`nil`: cancelled),
    /// on `queue`. Generic, as QN's typed callback is: its wrapper, which casts the erased value
    /// back, captures `Value`'s metadata beside `completion`.
    public final func start<Value: Sendable>(
        on queue: DispatchQueue, completion: @escaping @Sendable (Result<Value, any Error>?) -> Void
    ) {
        start(
            Observer(queue: queue) { outcome in
                switch outcome {
                case .succeeded(let value): completion(.success(value as! Value))
                case .failed(let error): completion(.failure(error))
                case .cancelled: completion(nil)
                }
            })
    }

    final func start(_ observer: Observer) {
        let action: StartAction = state.withLock { state in
            if state.stage == .finished, let outcome = state.outcome { return .deliver(outcome) }
            if state.first == nil { state.first = observer } else { state.rest.append(observer) }
            guard state.stage == .ready else { return .stored }
            state.stage = .running
            return .run
        }
        switch action {
        case .run: main()
        case .stored: break
        case .deliver(let outcome): observer.notify(outcome)
        }
    }

    /// Finishes with `outcome` unless already finished; `false` if it had.
    @discardableResult
    public final func finish(_ outcome: QNContractFloorOutcome) -> Bool {
        var first: Observer?
        var rest: [Observer] = []
        let finished = state.withLock { state in
            guard state.stage != .finished else { return false }
            state.stage = .finished
            state.outcome = outcome
            swap(&first, &state.first)
            swap(&rest, &state.rest)
            return true
        }
        guard finished else { return false }
        first?.notify(outcome)
        for observer in rest { observer.notify(outcome) }
        return true
    }

    /// Cancels the task unless it finished, then the task it waits for.
    public final func cancel() {
        guard finish(.cancelled) else { return }
        didCancel()
    }

    /// Cancels the task this one waits for; overridden by the link.
    func didCancel() {}

    /// A lazy `map` link of this task.
    public final func map(on queue: DispatchQueue, _ transform: @escaping @Sendable (Int) -> Int) -> QNContractFloorLink
    {
        QNContractFloorLink(source: self, queue: queue, step: .map(transform))
    }

    /// A lazy `then` link of this task: it adopts the task `next` returns.
    public final func then(
        on queue: DispatchQueue, _ next: @escaping @Sendable (Int) -> QNContractFloorTask
    ) -> QNContractFloorLink {
        QNContractFloorLink(source: self, queue: queue, step: .then(next))
    }
}

/// A task completed from outside, with the start block QN's manual task keeps.
public final class QNContractFloorManual: QNContractFloorTask, @unchecked Sendable {
    // @unchecked Sendable: adds `starter`, read and cleared only by `main()`, which runs at most once.

    public typealias Starter = @Sendable (QNContractFloorManual) -> Void

    private var starter: Starter?

    public init(start: @escaping Starter = { _ in }) {
        starter = start
        super.init(holdsStep: false)
    }

    override func main() {
        let starter = self.starter
        self.starter = nil
        starter?(self)
    }
}

/// A continuation with a step of either kind, its source held strongly until started and weakly
/// after, and a weak reference to the task its step adopted.
public final class QNContractFloorLink: QNContractFloorTask, QNFloorStarting, @unchecked Sendable {
    // @unchecked Sendable: adds `step`, `unstarted`, `source` and `adopted`, guarded by `state`'s
    // lock, and an immutable `queue`.

    enum Step {
        case map(@Sendable (Int) -> Int)
        case then(@Sendable (Int) -> QNContractFloorTask)
    }

    private var step: Step?
    private var unstarted: QNContractFloorTask?
    private weak var source: QNContractFloorTask?
    private weak var adopted: QNContractFloorTask?
    private let queue: DispatchQueue

    init(source: QNContractFloorTask, queue: DispatchQueue, step: Step) {
        self.step = step
        self.queue = queue
        unstarted = source
        super.init(holdsStep: true)
    }

    override func main() {
        QNFloorStarts.start(self)
    }

    func startSource() {
        var taken: QNContractFloorTask?
        let starts = state.withLock { state in
            taken = unstarted
            unstarted = nil
            guard state.stage == .running else { return false }
            source = taken
            return true
        }
        // The source of a link cancelled meanwhile is freed here, outside the lock, as QN's.
        guard starts else { return }
        taken?.start(Observer(queue: queue) { outcome in self.sourceFinished(outcome) })
    }

    /// Takes the step if the link still holds it: once, by the source's outcome or by a
    /// cancellation. Call it under the lock; free what it returns outside.
    private func takeStep(_ state: inout State) -> Step? {
        guard state.holdsStep else { return nil }
        state.holdsStep = false
        defer { step = nil }
        return step
    }

    private func sourceFinished(_ outcome: QNContractFloorOutcome) {
        // A cancelled link does not run its step.
        var taken: Step?
        let runs = state.withLock { state in
            taken = takeStep(&state)
            return state.stage == .running
        }
        guard runs, let taken else { return }
        switch outcome {
        case .succeeded(let erased):
            let value = erased as? Int ?? 0
            switch taken {
            case .map(let transform): finish(.succeeded(transform(value)))
            case .then(let next): adopt(next(value))
            }
        case .failed(let error): finish(.failed(error))
        case .cancelled: cancel()
        }
    }

    private func adopt(_ task: QNContractFloorTask) {
        state.withLock { _ in adopted = task }
        task.start(Observer(queue: nil) { outcome in self.finish(outcome) })
    }

    override func didCancel() {
        var dropped: Step?
        let (source, adopted) = state.withLock { state in
            dropped = takeStep(&state)
            return (self.source, self.adopted)
        }
        if let adopted { adopted.cancel() } else { source?.cancel() }
        withExtendedLifetime(dropped) {}  // freed here, outside the lock
    }
}
