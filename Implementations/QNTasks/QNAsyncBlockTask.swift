public import Dispatch
import PromiseInterface

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
    // @unchecked Sendable: adds an immutable `queue` and `work`, guarded by its own PromiseMutex
    // (see QNAsyncTask).

    /// The work: receives the task, returns the result or throws.
    public typealias Work = @Sendable (QNAsyncBlockTask<Result>) throws -> Result

    private let queue: DispatchQueue
    /// The block, until the run queued by `start` takes it out (and runs it unless the task was
    /// cancelled meanwhile), so a started task that finished no longer keeps what the block
    /// captured. A task cancelled before it was started keeps it until it is freed.
    private let work: QNOneShot<StoredWork>

    /// The closure in a struct, as `QNOneShot` wants it (see there).
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
        self.work = QNOneShot(StoredWork(run: work))
        super.init(identifier: taskID)
    }

    override func main() {
        // The queued block keeps the task alive until the work is done.
        queue.async { [self] in
            guard let work = self.work.take()?.run, !isCancelled else { return }
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
