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
///   its own; a node for another queue goes into a batch for that queue, dispatched once the
///   current node has returned. After ``budget`` nodes the drain hands what is left to a new
///   block on its queue, so that the queue's other blocks get their turn.
/// - a **local drain**, on a thread that settles a promise outside any drain (user code on any
///   thread, or a queue's own block). It runs the internal nodes that need no queue (adoption,
///   aggregation) and dispatches the rest, one block per queue, before the settling call returns.
///
/// The drain running on a thread is found through a thread-local pointer, so that a resolver
/// called from inside a callback joins the drain that runs the callback.
@usableFromInline
struct Drain {
    /// The queue this drain runs on; `nil` for a local drain.
    @usableFromInline let queue: DispatchQueue?
    /// The nodes still to run here, in order.
    @usableFromInline var runnable = NodeList()
    /// The nodes for other queues, in order, dispatched after the current node.
    @usableFromInline var elsewhere = NodeList()

    /// How many nodes a queue drain runs before it yields its queue to the queue's other blocks.
    @usableFromInline static let budget = 1_024

    @inlinable
    init(queue: DispatchQueue?) {
        self.queue = queue
    }

    /// Hands `node` to this drain: it runs here if it needs no queue or this drain's queue, and
    /// is dispatched to its own queue otherwise.
    @inlinable
    mutating func schedule(_ node: Node) {
        schedule(owned: Unmanaged.passRetained(node))
    }

    /// Hands over a node whose reference passes to the drain.
    @inlinable
    mutating func schedule(owned node: Unmanaged<Node>) {
        let target = node._withUnsafeGuaranteedRef { $0.queue }
        if target == nil || target === queue {
            runnable.append(owned: node)
        } else {
            elsewhere.append(owned: node)
        }
    }

    /// Dispatches the nodes for other queues: one block per run of nodes for the same queue,
    /// keeping their order per queue.
    @usableFromInline
    mutating func dispatchElsewhere() {
        while let first = elsewhere.popFirstOwned() {
            let queue = first._withUnsafeGuaranteedRef { $0.queue! }
            var batch = NodeList()
            batch.append(owned: first)
            var others = NodeList()
            while let node = elsewhere.popFirstOwned() {
                if node._withUnsafeGuaranteedRef({ $0.queue === queue }) {
                    batch.append(owned: node)
                } else {
                    others.append(owned: node)
                }
            }
            elsewhere = others
            Drain.dispatch(batch, onto: queue)
        }
    }

    /// Dispatches a drain of `batch` onto `queue`; the block holds the batch's references.
    @usableFromInline
    static func dispatch(_ batch: NodeList, onto queue: DispatchQueue) {
        let first = batch.head!.takeRetainedValue()
        queue.async { Drain.run(batchFrom: first) }
    }

    /// The body of a queue drain: runs `first` and the nodes linked after it, then whatever they
    /// make runnable on this queue, up to ``budget`` nodes.
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
            var remaining = budget
            while let node = drain.pointee.runnable.popFirst() {
                node.run(drain)
                if !drain.pointee.elsewhere.isEmpty { drain.pointee.dispatchElsewhere() }
                remaining -= 1
                if remaining == 0, !drain.pointee.runnable.isEmpty {
                    // Yield the queue: the rest runs in a block of its own, after the blocks
                    // that were queued meanwhile.
                    Drain.dispatch(drain.pointee.runnable, onto: drain.pointee.queue!)
                    drain.pointee.runnable = NodeList()
                }
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
        precondition(status == 0, "BatchedPromises: pthread_key_create failed (\(status))")
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
