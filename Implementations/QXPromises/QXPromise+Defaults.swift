public import Dispatch
import PromiseRuntime

/// Guards the queue new promises use when none is given.
private let defaultQueueStorage = PromiseMutex<DispatchQueue>(.main)

extension QXPromise {
    /// The callback queue of promises made without `on:`: the main queue unless changed.
    ///
    /// One global setting; changing it affects only promises made afterwards (each promise keeps
    /// the queue it was made with, its ``callbackQueue``).
    public static var defaultQueue: DispatchQueue {
        get { defaultQueueStorage.withLock { $0 } }
        set { defaultQueueStorage.withLock { $0 = newValue } }
    }
}
