public import Dispatch
import PromiseRuntime

/// A task whose work is one block: it receives the task (to check for cancellation and report
/// progress) and returns a result or throws.
///
/// The block runs once, on `queue`, when the task is first started. If the task was cancelled
/// before the block got to run, the block never runs. If the task is cancelled while the block
/// runs, the task reports `.cancelled` at once and whatever the block later returns is ignored;
/// the block should check ``QNAsyncTask/isCancelled`` (or call
/// ``QNAsyncTask/checkCancellation()``) to stop early. A block that throws `CancellationError`
/// cancels the task.
///
/// ```swift
/// let resize = QNAsyncBlockTask<[Image]>(taskID: "resize", queue: .global()) { task in
///     var done: [Image] = []
///     for (index, image) in images.enumerated() {
///         try task.checkCancellation()
///         done.append(image.resized())
///         task.reportProgress(Double(index + 1) / Double(images.count))
///     }
///     return done
/// }
/// resize.start { outcome in show(outcome) }
/// ```
public final class QNAsyncBlockTask<Result: Sendable>: QNAsyncTask<Result>, @unchecked Sendable {
    // @unchecked Sendable: adds an immutable `queue`, and `work`, which needs no lock of its own:
    // it is written at creation, read and cleared only by the block `main()` queues (the state
    // machine's lock lets `main()` run at most once), and read by `deinit` (see QNAsyncTask).

    /// The work: receives the task, returns the result or throws.
    public typealias Work = @Sendable (QNAsyncBlockTask<Result>) throws -> Result

    private let queue: DispatchQueue
    /// The block, until the run queued by `start` takes it out (and runs it unless the task was
    /// cancelled meanwhile), so a started task that finished no longer keeps what the block
    /// captured. A task cancelled before it was started keeps it until it is freed.
    ///
    /// No lock: see the class's `@unchecked Sendable` note. A lock here would make every task
    /// larger.
    private var work: StoredWork?

    /// The closure in a struct, so that the optional stores it as written (see `QNOneShot`).
    private struct StoredWork: Sendable {
        let run: Work
    }

    /// Makes a ready task; nothing runs until it is started.
    ///
    /// - Parameters:
    ///   - taskID: The task's ID; a unique one is generated if `nil`.
    ///   - queue: Where the block runs. Defaults to a global queue.
    ///   - work: The block.
    public init(taskID: String? = nil, queue: DispatchQueue = .global(), _ work: @escaping Work) {
        self.queue = queue
        self.work = StoredWork(run: work)
        super.init(identifier: taskID)
    }

    deinit {
        // Work that never ran may hold the next level of a nest: freed in a loop (see `QNOneShot`).
        // Not `work.take()`, which looks up generic metadata when unspecialised (see the
        // continuation's `takeStep`).
        guard let unused = work else { return }
        work = nil
        releaseIteratively(consume unused)
    }

    override func main() {
        // The queued block keeps the task alive until the work is done.
        queue.async { [self] in
            let stored = self.work
            self.work = nil
            guard let work = stored?.run, !isCancelled else { return }
            do {
                finish(succeeding: try work(self))
            } catch is CancellationError {
                cancel()
            } catch {
                finish(failing: error)
            }
        }
    }
}
