public import Dispatch
import Foundation
import PromiseRuntime

// An experiment, not a design: the least a task can do and still keep QN's contract for a `map`
// link, to find QN's floor by measurement (Reports/performance.md, "QN's floor"), as `Floor` does
// for FBL.
//
// The contract kept:
// - lazy: nothing runs until the last task is started; starting a continuation starts its source
//   and only then registers on it; the continuation holds its unstarted source strongly;
// - three outcomes (succeeded, failed, cancelled), the first one wins;
// - every callback runs asynchronously on the queue it was given, never on the finishing stack;
// - cancelling a continuation cancels the task it waits for, through a weak reference back to its
//   source (a strong one would keep a dropped chain alive in a cycle: source -> observer ->
//   continuation -> source), and a step never runs once its continuation is cancelled;
// - `start(on:completion:)` registers the caller's callback as an observer of the task itself,
//   as QN's does (the chain's last link has one more observer than a promise chain's).
//
// - starting the end of a chain of any length does not deepen the stack: the sources' starts run
//   in a loop on the starting thread (a per-thread list, as QN's drain).
//
// What it leaves out of QN: task IDs, cancellation handlers and progress monitors (their out-of-
// line state is never allocated when unused in QN either), flat cancellation of long chains, the
// iterative release of dropped chains, the
// ordered hand-out under a concurrent finish, the debug leak tracker, generics (its values are
// `Int`: a generic class hierarchy whose overrides run unspecialised looks up generic metadata on
// every call, which QN's erased core avoids and a first version of this prototype spent 30 % of
// its chain's profile on), `then` (adoption), serial and parallel tasks.
//
// Counted beside QN: swift run -c release InstructionCounter check --only QN --only Floor-QN

/// Three outcomes, as QN's.
public enum QNFloorOutcome: Sendable {
    case succeeded(Int)
    case failed(any Error)
    case cancelled
}

/// A minimal lazy, cancellable task: a manual task as it is, a continuation as the subclass.
public class QNFloorTask: @unchecked Sendable {
    // @unchecked Sendable: the mutable state is `state`, guarded by its PromiseMutex; the subclass
    // adds immutable properties only.

    public typealias Observer = @Sendable (QNFloorOutcome) -> Void

    enum Phase {
        case ready
        case running
        case finished(QNFloorOutcome)
    }

    struct State {
        var phase = Phase.ready
        /// Observers in registration order, the first inline.
        var first: Observer?
        var rest: [Observer] = []
        /// A continuation's source until it starts (held strongly while nothing else runs it);
        /// typed by the subclass.
        var unstarted: (any AnyObject & Sendable)?
    }

    enum StartAction {
        case run, stored
        case deliver(QNFloorOutcome)
    }

    /// Observers taken out of the lock in their struct (see `FloorPromise.settle`).
    struct Taken {
        var first: Observer?
        var rest: [Observer]
    }

    let state: PromiseMutex<State>

    public init() {
        state = PromiseMutex(State())
    }

    init(unstarted: any AnyObject & Sendable) {
        state = PromiseMutex(State(unstarted: unstarted))
    }

    /// Starts the work; overridden by the continuation. A manual task has none.
    func main() {}

    /// Starts the task (idempotent) and calls `completion` with its outcome on `queue`.
    public final func start(on queue: DispatchQueue, completion: @escaping @Sendable (QNFloorOutcome) -> Void) {
        start { outcome in queue.async { completion(outcome) } }
    }

    /// Starts the task (idempotent) and registers `observer`, which is called on the finishing
    /// thread (it hops itself).
    public final func start(_ observer: @escaping Observer) {
        let action: StartAction = state.withLock { state in
            switch state.phase {
            case .finished(let outcome): return .deliver(outcome)
            case .ready, .running:
                if state.first == nil { state.first = observer } else { state.rest.append(observer) }
                guard case .ready = state.phase else { return .stored }
                state.phase = .running
                return .run
            }
        }
        switch action {
        case .run: main()
        case .stored: break
        case .deliver(let outcome): observer(outcome)
        }
    }

    /// Finishes with `outcome` unless already finished; `false` if it had.
    @discardableResult
    public final func finish(_ outcome: QNFloorOutcome) -> Bool {
        let taken: Taken? = state.withLock { state in
            if case .finished = state.phase { return nil }
            state.phase = .finished(outcome)
            defer {
                state.first = nil
                state.rest = []
            }
            return Taken(first: state.first, rest: state.rest)
        }
        guard let taken else { return false }
        if let first = taken.first {
            first(outcome)
            for observer in taken.rest { observer(outcome) }
        }
        return true
    }

    /// Cancels the task unless it finished, then the task it waits for.
    public final func cancel() {
        guard finish(.cancelled) else { return }
        didCancel()
    }

    /// Cancels the task this one waits for; overridden by the continuation.
    func didCancel() {}

    /// A lazy `map` link of this task.
    public final func map(on queue: DispatchQueue, _ transform: @escaping @Sendable (Int) -> Int) -> QNFloorMap {
        QNFloorMap(source: self, queue: queue, transform: transform)
    }
}

/// A continuation: waits for its source, then maps its value on `queue`.
public final class QNFloorMap: QNFloorTask, QNFloorStarting, @unchecked Sendable {
    // @unchecked Sendable: adds immutable properties (the weak reference is written once, in
    // `init`).

    let queue: DispatchQueue
    let transform: @Sendable (Int) -> Int
    /// The source, for cancellation. Formed at creation: what it costs is the side table it gives
    /// the source and the slow reference counting after it.
    weak let source: QNFloorTask?

    init(source: QNFloorTask, queue: DispatchQueue, transform: @escaping @Sendable (Int) -> Int) {
        self.queue = queue
        self.transform = transform
        self.source = source
        super.init(unstarted: source)
    }

    override func main() {
        QNFloorStarts.start(self)
    }

    func startSource() {
        let unstarted = state.withLock { $0.unstarted.take() }
        guard let unstarted else { return }
        let source = unsafeDowncast(unstarted, to: QNFloorTask.self)
        let queue = self.queue
        source.start { outcome in queue.async { self.sourceFinished(outcome) } }
    }

    private func sourceFinished(_ outcome: QNFloorOutcome) {
        // A cancelled continuation does not run its step.
        let running = state.withLock { state in
            if case .running = state.phase { return true }
            return false
        }
        guard running else { return }
        switch outcome {
        case .succeeded(let value): finish(.succeeded(transform(value)))
        case .failed(let error): finish(.failed(error))
        case .cancelled: cancel()
        }
    }

    override func didCancel() {
        source?.cancel()
    }
}

/// A continuation whose source's start can be deferred to the loop.
protocol QNFloorStarting: AnyObject {
    func startSource()
}

/// Runs the starts of a chain's sources in a loop: the outermost start on a thread runs every
/// start enqueued meanwhile (each link's start starts its source, a continuation, which enqueues
/// its own), so starting the end of a 100,000-link chain does not nest 100,000 calls.
enum QNFloorStarts {
    /// The per-thread list; only its own thread touches it.
    private final class List {
        var isActive = false
        var pending: [any QNFloorStarting] = []
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            let list: UnsafeMutableRawPointer? = raw
            guard let list else { return }
            Unmanaged<AnyObject>.fromOpaque(list).release()
        }
        precondition(status == 0, "pthread_key_create failed (\(status))")
        return key
    }()

    static func start(_ continuation: any QNFloorStarting) {
        let list: List
        if let existing = pthread_getspecific(key) {
            list = Unmanaged<List>.fromOpaque(existing).takeUnretainedValue()
        } else {
            list = List()
            pthread_setspecific(key, Unmanaged.passRetained(list).toOpaque())
        }
        guard !list.isActive else {
            list.pending.append(continuation)
            return
        }
        list.isActive = true
        continuation.startSource()
        while let next = list.pending.popLast() { next.startSource() }
        list.isActive = false
    }
}
