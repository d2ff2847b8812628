public import Dispatch

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where nodes run: the trampoline that makes a callback cost no dispatch of its own.
///
/// A drain runs nodes one after another on one thread, in the order they became runnable, and
/// never one inside another: a node that settles a promise hands the promise's waiters to the
/// drain, which runs them after the node has returned (Promises/A+ 2.2.4 and note 3.1). There are
/// two kinds:
/// - a **queue drain**, a block dispatched onto a queue with a batch of nodes for that queue. A
///   node for the same queue that becomes runnable while it drains joins it, with no dispatch of
///   its own; a node for another queue goes into a batch for that queue, dispatched before the
///   settle that made it runnable returns. The drain runs until no node is left: it never hands the rest to
///   a new block of its queue, which would let a block queued meanwhile (a callback registered
///   on a settled promise) run before the callbacks registered ahead of it (Promises/A+ 2.2.6).
/// - a **local drain**, on a thread that settles a promise outside any drain (user code on any
///   thread, or a queue's own block). It runs the internal nodes that need no queue (adoption,
///   aggregation) and dispatches the rest, one block per run of consecutive nodes for one queue,
///   before the settling call returns.
///
/// The drain running on a thread is found through a thread-local pointer, so that a resolver
/// called from inside a callback joins the drain that runs the callback.
@usableFromInline
struct Drain {
    /// The queue this drain runs on; `nil` for a local drain.
    @usableFromInline let queue: DispatchQueue?
    /// Whether ``queue`` is the main queue, which Dispatch on Linux hands out as a new object at
    /// every `DispatchQueue.main`: a callback given another object for it still joins this drain.
    @usableFromInline let isMain: Bool
    /// The nodes still to run here, in order.
    @usableFromInline var runnable = NodeList()
    /// The nodes for other queues, in order: dispatched before a settle stops handing out
    /// (``PromiseBox/finishHandingOut(cancelled:in:)``), and after each node.
    @usableFromInline var elsewhere = NodeList()

    @inlinable
    init(queue: DispatchQueue?) {
        self.queue = queue
        isMain = queue.map(Drain.isMainQueue) ?? false
    }

    /// The main queue, as the operators' default and the main-actor forms give it: one object, so
    /// that identity tells it apart cheaply.
    @usableFromInline static let mainQueue = DispatchQueue.main

    /// Marks the main queue, for ``isMainQueue(_:)``.
    @usableFromInline static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether `queue` is the main queue, whichever object stands for it.
    @usableFromInline
    static func isMainQueue(_ queue: DispatchQueue) -> Bool {
        queue === mainQueue || queue.getSpecific(key: mainQueueKey) == true
    }

    /// Hands `node` to this drain: it runs here if it needs no queue or this drain's queue, and
    /// is dispatched to its own queue otherwise.
    @inlinable
    mutating func schedule(_ node: Node) {
        schedule(owned: Unmanaged.passRetained(node))
    }

    /// Hands over `node`, registered on a promise that had settled already: a node that needs no
    /// queue runs here, a node for a queue is dispatched to it, even if it is this drain's. The
    /// promise's earlier callbacks may have been dispatched to that queue already (each
    /// registration on a settled promise dispatches its own): joining this drain would run the
    /// node before them (Promises/A+ 2.2.6).
    @inlinable
    mutating func scheduleLate(_ node: Node) {
        let owned = Unmanaged.passRetained(node)
        if node.queue == nil { runnable.append(owned: owned) } else { elsewhere.append(owned: owned) }
    }

    /// Hands over a node whose reference passes to the drain.
    @inlinable
    mutating func schedule(owned node: Unmanaged<Node>) {
        let target = node._withUnsafeGuaranteedRef { $0.queue }
        if target == nil || target === queue || (isMain && Drain.isMainQueue(target!)) {
            runnable.append(owned: node)
        } else {
            elsewhere.append(owned: node)
        }
    }

    /// Dispatches the nodes for other queues: one block per run of consecutive nodes for the same
    /// queue, which keeps their order per queue (the waiters of one settle that were registered one
    /// after another for one queue are one run).
    @usableFromInline
    mutating func dispatchElsewhere() {
        var batch = NodeList()
        var batchQueue: DispatchQueue? = nil
        while let node = elsewhere.popFirstOwned() {
            let queue = node._withUnsafeGuaranteedRef { $0.queue! }
            if let current = batchQueue, !Drain.isSameQueue(current, queue) {
                Drain.dispatch(batch, onto: current)
                batch = NodeList()
            }
            batchQueue = queue
            batch.append(owned: node)
        }
        if let batchQueue { Drain.dispatch(batch, onto: batchQueue) }
    }

    /// Whether two objects stand for one queue: the same object, or both the main queue (see
    /// ``isMain``).
    @inlinable
    static func isSameQueue(_ first: DispatchQueue, _ second: DispatchQueue) -> Bool {
        first === second || (isMainQueue(first) && isMainQueue(second))
    }

    /// Dispatches a drain of `batch` onto `queue`, the queue of its first node; the block holds the
    /// batch's references.
    @usableFromInline
    static func dispatch(_ batch: NodeList, onto queue: DispatchQueue) {
        let first = batch.head!.takeRetainedValue()
        queue.async { Drain.run(batchFrom: first) }
    }

    /// The body of a queue drain: runs `first` and the nodes linked after it, then whatever they
    /// make runnable on this queue, the queue of `first`.
    @usableFromInline
    static func run(batchFrom first: Node) {
        var drain = Drain(queue: first.queue)
        var list = NodeList()
        let head = Unmanaged.passRetained(first)
        list.head = head
        var last = head
        while let next = last._withUnsafeGuaranteedRef({ $0.next }) { last = next }
        list.tail = last
        drain.runnable = list
        withUnsafeMutablePointer(to: &drain) { drain in
            let outer = CurrentDrain.get()
            CurrentDrain.set(drain)
            while let node = drain.pointee.runnable.popFirst() {
                node.run(drain)
                if !drain.pointee.elsewhere.isEmpty { drain.pointee.dispatchElsewhere() }
            }
            CurrentDrain.set(outer)
        }
    }

    /// Runs `body` with the drain of this thread, or in a local drain that runs, once `body`
    /// returns, what `body` made runnable, and dispatches what belongs to queues.
    @inlinable
    static func withCurrent(_ body: (UnsafeMutablePointer<Drain>) -> Void) {
        if let current = CurrentDrain.get() {
            body(current)
            return
        }
        var drain = Drain(queue: nil)
        withUnsafeMutablePointer(to: &drain) { drain in
            CurrentDrain.set(drain)
            body(drain)
            while true {
                while let node = drain.pointee.runnable.popFirst() {
                    node.run(drain)
                }
                guard !drain.pointee.elsewhere.isEmpty else { break }
                drain.pointee.dispatchElsewhere()
            }
            CurrentDrain.set(nil)
        }
    }
}

/// The drain running on this thread, if any (a thread-local pointer to it).
@usableFromInline
enum CurrentDrain {
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        if status != 0 { fatalError("BatchedPromises: pthread_key_create failed (\(status))") }
        return key
    }()

    @usableFromInline
    static func get() -> UnsafeMutablePointer<Drain>? {
        pthread_getspecific(key)?.assumingMemoryBound(to: Drain.self)
    }

    @usableFromInline
    static func set(_ drain: UnsafeMutablePointer<Drain>?) {
        pthread_setspecific(key, drain.map { UnsafeRawPointer($0) })
    }
}
