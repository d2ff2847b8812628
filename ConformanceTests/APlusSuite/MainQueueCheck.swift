import Dispatch
import PromiseRuntime

/// Counts the library's callbacks that ran off the main queue, per adapter, so that a case in
/// which one did fails with a message that names the cause instead of a race the case cannot
/// explain. Per adapter, so that runs of other libraries at the same time (parallel tests) are
/// not blamed.
///
/// The cases write what happened before a callback (that `then` returned, which promise a
/// variable holds) from main-queue blocks, and the callbacks read it; a callback on another
/// thread can run before those writes. Checked with a queue-specific key, not the main thread:
/// Swift Testing services the main queue from a worker thread on Linux.
enum MainQueueCheck {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Guards the count of callbacks that ran off the main queue, per adapter type.
    private static let offMainCallbacks = PromiseMutex<[ObjectIdentifier: Int]>([:])

    /// How many callbacks of `adapter`'s library have run off the main queue in this process.
    static func count(for adapter: ObjectIdentifier) -> Int {
        offMainCallbacks.withLock { $0[adapter, default: 0] }
    }

    /// Called by every callback the suite gives the library that `adapter` drives.
    static func note(for adapter: ObjectIdentifier) {
        if DispatchQueue.getSpecific(key: key) != true {
            offMainCallbacks.withLock { $0[adapter, default: 0] += 1 }
        }
    }

    /// The outcome of a case during which `offMain` callbacks ran off the main queue.
    static func outcome(_ outcome: CaseOutcome, offMain: Int) -> CaseOutcome {
        guard offMain > 0 else { return outcome }
        let message =
            "\(offMain) of the library's callbacks ran off the main queue: the cases need `then`'s "
            + "callbacks on the main queue (see APlusAdapter)"
        switch outcome {
        case .passed: return .failed([message])
        case .failed(let failures): return .failed(failures + [message])
        case .timedOut(let failures): return .timedOut(failures + [message])
        }
    }
}
