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
///   settle that made it runnable returns. After ``batchLimit`` nodes it hands its queue back: the
///   rest of its nodes go on in a new block of the queue, behind the blocks queued meanwhile. A
///   promise that settled in it keeps handing out until the drain (or the block that goes on with
///   it) reaches the last node the promise handed it (``HandOutEnds``), so a registration meanwhile
///   joins that hand-out instead of dispatching a block that would overtake the callbacks
///   registered before it (Promises/A+ 2.2.6).
/// - a **local drain**, on a thread that settles a promise outside any drain (user code on any
///   thread, or a queue's own block). It runs the internal nodes that need no queue (adoption,
///   aggregation) and dispatches the rest, one block per run of consecutive nodes for one queue,
///   before the settling call returns.
///
/// The drain running on a thread is found through a thread-local pointer, so that a resolver
/// called from inside a callback joins the drain that runs the callback.
@usableFromInline
struct Drain {
    /// The queue this drain runs on; `nil` for a local drain. Not a strong reference: a queue
    /// drain is a block of the queue, and Dispatch keeps a queue while a block of it runs (the
    /// block that goes on with a drain's rest holds it, ``Rest``).
    @usableFromInline unowned(unsafe) var queue: DispatchQueue?
    /// ``queue``'s address, which tells a node for it apart with no reference counting.
    @usableFromInline var queueAddress: UnsafeMutableRawPointer?
    /// Whether ``queue`` is the main queue, which Dispatch on Linux hands out as a new object at
    /// every `DispatchQueue.main`, so that a callback given another object for it still joins this
    /// drain: `nil` until a callback for another object than ``queue`` asks (asking costs a
    /// queue-specific lookup, which most drains never need).
    @usableFromInline var isMain: Bool?
    /// Whether the drain is running: each thread keeps one drain for good (``CurrentDrain``), idle
    /// between runs.
    @usableFromInline var isRunning = false
    /// The nodes still to run here, in order.
    @usableFromInline var runnable = NodeList()
    /// The nodes for other queues, in order: dispatched before a settle stops handing out
    /// (``PromiseCore/finishHandingOut(cancelled:in:)``), and after each node.
    @usableFromInline var elsewhere = NodeList()
    /// The promises handing out into this drain, each until the drain reaches the last node it
    /// handed to ``runnable``.
    @usableFromInline var handOutEnds = HandOutEnds()
    /// How many nodes have been added to ``runnable``, and how many a queue drain runs before it
    /// hands its queue back (counted from its first; no limit for a local drain, which never does):
    /// a node added while `appended < yieldsAfter` runs before the drain hands its queue back.
    @usableFromInline var appended = 0
    @usableFromInline var yieldsAfter = Int.max

    /// Whether the node added last to ``runnable`` runs before this drain hands its queue back: a
    /// promise whose last node it is then ends its hand-out at once, since no block dispatched
    /// meanwhile can reach the queue before that node runs.
    @inlinable
    var runsLastAddedBeforeYielding: Bool { appended <= yieldsAfter }

    /// How many nodes a queue drain runs before it hands its queue back: a few hundred
    /// microseconds of links, as Scala's `BatchingExecutor` runs 1,024 runnables in a batch.
    @usableFromInline static let batchLimit = 1_024

    /// Where a promise's hand-out into a drain ends: once the drain reaches `last`, the last node
    /// of `box` in ``runnable``.
    @usableFromInline
    struct HandOutEnd {
        /// The promise: alive while `last`, which holds a reference to it, waits to run.
        @usableFromInline let box: Unmanaged<PromiseCore>
        @usableFromInline let last: Unmanaged<Node>
        @usableFromInline let cancelled: Bool

        @inlinable
        init(box: Unmanaged<PromiseCore>, last: Unmanaged<Node>, cancelled: Bool) {
            self.box = box
            self.last = last
            self.cancelled = cancelled
        }
    }

    /// The hand-outs a drain will end, in the order their last nodes come in ``runnable`` (a
    /// promise's nodes are appended when it settles, so an earlier settle's last node comes first):
    /// the first inline, so that a chain, one promise handing out at a time, allocates nothing.
    @usableFromInline
    struct HandOutEnds {
        @usableFromInline var first: HandOutEnd?
        /// The ones after ``first``, from `more[next]` on (taken from the front without moving the
        /// rest, so that ten thousand promises settled by one node cost no quadratic shuffle).
        @usableFromInline var more: [HandOutEnd] = []
        @usableFromInline var next = 0

        @inlinable
        init() {}

        @inlinable
        mutating func append(_ end: HandOutEnd) {
            if first == nil { first = end } else { more.append(end) }
        }

        /// The hand-out that ends at `node`, taken out, or `nil`.
        @inlinable
        @inline(__always)
        mutating func take(endingAt node: Node) -> HandOutEnd? {
            guard let end = first, end.last.toOpaque() == Unmanaged.passUnretained(node).toOpaque() else {
                return nil
            }
            first = nil
            if !more.isEmpty { advance() }
            return end
        }

        @usableFromInline
        mutating func advance() {
            first = more[next]
            next += 1
            if next == more.count {
                more.removeAll(keepingCapacity: true)
                next = 0
            }
        }
    }

    /// Runs `node`, once the hand-out that ends with it has ended: what registered on that promise
    /// meanwhile is handed out after it.
    @inlinable
    @inline(__always)
    mutating func run(_ node: Node, in drain: UnsafeMutablePointer<Drain>) {
        if let end = handOutEnds.take(endingAt: node) {
            end.box._withUnsafeGuaranteedRef { $0.finishHandingOut(cancelled: end.cancelled, in: drain) }
        }
        node.run(drain)
    }

    @inlinable
    init(queue: DispatchQueue?) {
        self.queue = queue
        queueAddress = queue.map { Unmanaged.passUnretained($0).toOpaque() }
        isMain = queue == nil ? false : nil
    }

    /// Whether `target`, which is not ``queue``'s object, stands for ``queue`` all the same: both
    /// are the main queue.
    @usableFromInline
    mutating func isQueue(_ target: DispatchQueue) -> Bool {
        if isMain == nil { isMain = Drain.isMainQueue(queue!) }
        return isMain! && Drain.isMainQueue(target)
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
        if node.queue == nil {
            runnable.append(owned: owned)
            appended += 1
        } else {
            elsewhere.append(owned: owned)
        }
    }

    /// Hands over a node whose reference passes to the drain; returns whether it runs here.
    @inlinable
    @discardableResult
    mutating func schedule(owned node: Unmanaged<Node>) -> Bool {
        let target = node._withUnsafeGuaranteedRef { $0.queueAddress }
        if target == nil || target == queueAddress
            || (queueAddress != nil && node._withUnsafeGuaranteedRef { isQueue($0.queue!) })
        {
            runnable.append(owned: node)
            appended += 1
            return true
        }
        elsewhere.append(owned: node)
        return false
    }

    /// Dispatches the nodes for other queues: one block per run of consecutive nodes for the same
    /// queue, which keeps their order per queue (the waiters of one settle that were registered one
    /// after another for one queue are one run).
    @usableFromInline
    mutating func dispatchElsewhere() {
        // One node, the usual case: dispatched as it is.
        if let only = elsewhere.head, elsewhere.tail?.toOpaque() == only.toOpaque() {
            elsewhere = NodeList()
            only._withUnsafeGuaranteedRef { node in Drain.dispatch(only, onto: node.queue!) }
            return
        }
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
        dispatch(batch.head!, onto: queue)
    }

    /// Dispatches a drain of `first` and the nodes linked after it onto `queue`; the block holds
    /// their references.
    @usableFromInline
    static func dispatch(_ first: Unmanaged<Node>, onto queue: DispatchQueue) {
        let first = first.takeRetainedValue()
        queue.async { Drain.run(batchFrom: first) }
    }

    /// The body of a queue drain: runs `first` and the nodes linked after it, then whatever they
    /// make runnable on this queue, the queue of `first`.
    @usableFromInline
    static func run(batchFrom first: Node) {
        var list = NodeList()
        let head = Unmanaged.passRetained(first)
        list.head = head
        var last = head
        var count = 1
        while let next = last._withUnsafeGuaranteedRef({ $0.next }) {
            last = next
            count += 1
        }
        list.tail = last
        running(on: first.queue) { drain in
            drain.pointee.runnable = list
            drain.pointee.appended = count
            runQueueDrain(drain)
        }
    }

    /// Runs `body` with a drain of `queue` (a local drain when `nil`) that runs on this thread:
    /// the thread's own, which it keeps for good and which no thread-local write is needed to find
    /// (``CurrentDrain``), unless a drain runs on the thread already, further out (a callback that
    /// ran a block of another queue with `sync`); that one gets a drain of its own for the time.
    @inlinable
    static func running(on queue: DispatchQueue?, _ body: (UnsafeMutablePointer<Drain>) -> Void) {
        let own = CurrentDrain.get()
        guard own.pointee.isRunning else {
            own.pointee.begin(on: queue)
            body(own)
            own.pointee.end()
            return
        }
        var nested = Drain(queue: queue)
        nested.begin(on: queue)
        withUnsafeMutablePointer(to: &nested) { nested in
            CurrentDrain.set(nested)
            body(nested)
            CurrentDrain.set(own)
        }
    }

    /// Makes the drain, idle, a running drain of `queue`.
    @inlinable
    mutating func begin(on queue: DispatchQueue?) {
        self.queue = queue
        queueAddress = queue.map { Unmanaged.passUnretained($0).toOpaque() }
        isMain = queue == nil ? false : nil
        appended = 0
        yieldsAfter = queue == nil ? Int.max : Drain.batchLimit
        isRunning = true
    }

    /// The drain has run everything: idle again (its lists are empty), and holding no queue.
    @inlinable
    mutating func end() {
        isRunning = false
        queue = nil
        queueAddress = nil
    }

    /// Runs a queue drain's nodes, at most ``batchLimit``; then the rest, if any, goes on in a new
    /// block of the queue, with the hand-outs still under way.
    @usableFromInline
    static func runQueueDrain(_ drain: UnsafeMutablePointer<Drain>) {
        var ran = 0
        while let node = drain.pointee.runnable.popFirst() {
            drain.pointee.run(node, in: drain)
            if !drain.pointee.elsewhere.isEmpty { drain.pointee.dispatchElsewhere() }
            ran += 1
            if ran == drain.pointee.yieldsAfter, !drain.pointee.runnable.isEmpty {
                Rest(of: drain, after: ran).dispatch()
                return
            }
        }
    }

    /// What a queue drain hands on when it gives its queue back: its nodes still to run and the
    /// hand-outs under way, for the block that goes on with them.
    ///
    /// `@unchecked Sendable`: made by the drain's thread and then read only by the block it
    /// dispatches, which the dispatch orders after it.
    final class Rest: @unchecked Sendable {
        let queue: DispatchQueue
        let runnable: NodeList
        let count: Int
        let handOutEnds: HandOutEnds

        /// The rest of `drain`, which has run `ran` nodes.
        init(of drain: UnsafeMutablePointer<Drain>, after ran: Int) {
            queue = drain.pointee.queue!
            runnable = drain.pointee.runnable
            count = drain.pointee.appended - ran
            handOutEnds = drain.pointee.handOutEnds
            drain.pointee.runnable = NodeList()
            drain.pointee.handOutEnds = HandOutEnds()
        }

        func dispatch() {
            queue.async {
                Drain.running(on: self.queue) { drain in
                    drain.pointee.runnable = self.runnable
                    drain.pointee.appended = self.count
                    drain.pointee.handOutEnds = self.handOutEnds
                    Drain.runQueueDrain(drain)
                }
            }
        }
    }

    /// Runs `body` with the drain running on this thread, or in a local drain that runs, once
    /// `body` returns, what `body` made runnable, and dispatches what belongs to queues.
    @inlinable
    static func withCurrent(_ body: (UnsafeMutablePointer<Drain>) -> Void) {
        let current = CurrentDrain.get()
        if current.pointee.isRunning {
            body(current)
            return
        }
        current.pointee.begin(on: nil)
        body(current)
        while true {
            while let node = current.pointee.runnable.popFirst() {
                current.pointee.run(node, in: current)
            }
            guard !current.pointee.elsewhere.isEmpty else { break }
            current.pointee.dispatchElsewhere()
        }
        current.pointee.end()
    }
}

/// Each thread's drain: made the first time the thread needs one, kept for good (idle between
/// runs, ``Drain/isRunning``), and found through a thread-local pointer, so that finding it costs
/// a thread-local read and no write (a write, `pthread_setspecific`, costs some thirty
/// instructions, four of them per promise settled from outside a drain when the drain was made
/// and unmade each time). A drain that runs inside another on the same thread points the
/// thread-local pointer at itself for its time.
@usableFromInline
enum CurrentDrain {
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        // At the thread's exit its drain, idle and empty, is freed.
        let status = pthread_key_create(&key) { drain in
            guard let drain else { return }
            let own = drain.assumingMemoryBound(to: Drain.self)
            own.deinitialize(count: 1)
            own.deallocate()
        }
        if status != 0 { fatalError("BatchedPromises: pthread_key_create failed (\(status))") }
        return key
    }()

    /// The drain of this thread (or the one running inside it), made if the thread has none yet.
    @usableFromInline
    static func get() -> UnsafeMutablePointer<Drain> {
        if let drain = pthread_getspecific(key) { return drain.assumingMemoryBound(to: Drain.self) }
        return make()
    }

    @usableFromInline
    static func make() -> UnsafeMutablePointer<Drain> {
        let drain = UnsafeMutablePointer<Drain>.allocate(capacity: 1)
        drain.initialize(to: Drain(queue: nil))
        set(drain)
        return drain
    }

    @usableFromInline
    static func set(_ drain: UnsafeMutablePointer<Drain>) {
        pthread_setspecific(key, UnsafeRawPointer(drain))
    }
}
