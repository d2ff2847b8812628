import Dispatch
public import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How this module hands memory back to the system after a large drop, on Linux with glibc.
///
/// Every promise, link and observer of this module is a small heap object (under 128 bytes), a
/// size glibc's allocator keeps in per-size free lists ("fastbins") that are never merged or
/// returned to the system on their own. A process that made a million promises and then let them
/// go kept their memory resident (7.5 times its size before, for a 1,000,000-link chain), in this
/// design and in every port alike, until something called `malloc_trim`.
///
/// So the module counts, on a sample of one object in 1,024, the objects it frees and the objects
/// it makes. Once about 65,536 have been freed, it checks every 100 ms whether the module has gone
/// quiet (fewer than about 4,000 objects made or freed since the last check), and then calls
/// glibc's `malloc_trim(0)` on a utility queue, which returns the free pages. While promises keep
/// being made and freed (a busy server, a benchmark), the freed memory is reused at once and
/// returning it would only make the process take it back page by page; and a trim holds the
/// allocator's lock while it walks the heap (a few milliseconds after a million-object drop), so
/// that every allocation in the process waits for it: a trim while promises are being made, a
/// long chain built after a drop, stalled the queue that chain then drained on by up to 3.7 ms.
/// So the trim waits for the quiet, or for 10 s at most.
///
/// Elsewhere (Darwin's allocator returns free pages itself, musl has no `malloc_trim`) it does
/// nothing. What it cannot see: a drop of fewer than about 65,536 of the module's objects, and
/// other memory the process freed (it is returned with the module's, by the same trim); call
/// `malloc_trim(0)` yourself for those, or run with `GLIBC_TUNABLES=glibc.malloc.mxfast=0`.
public enum HeapTrimming {
    /// Whether the module trims the heap after a large drop (the default); set it to `false` to
    /// leave the heap to the process.
    public static var isEnabled: Bool {
        get { enabled.load(ordering: .relaxed) }
        set { enabled.store(newValue, ordering: .relaxed) }
    }

    static let enabled = Atomic<Bool>(true)

    /// How many sampled objects must have been freed for a trim to be considered: with one
    /// object in 1,024 sampled, about 65,536 objects.
    static let freedForTrim = 64
    /// Fewer sampled objects made or freed than this between two checks is quiet: about 4,000
    /// objects in 100 ms.
    static let quietFrees = 4
    /// How long a check waits for the next, and how many checks a busy process gets before it
    /// trims anyway.
    static let checkInterval = DispatchTimeInterval.milliseconds(100)
    static let checksBeforeTrimmingAnyway = 100

    /// The sampled objects freed, ever; the sampled objects made, ever (counted in `Node`'s
    /// initialiser itself: a call there cost a chain link 54 instructions, the add inline 9);
    /// whether a check is scheduled; the trims made, ever.
    static let freed = Atomic<Int>(0)
    @usableFromInline static let made = Atomic<Int>(0)
    static let scheduled = Atomic<Bool>(false)
    static let trims = Atomic<Int>(0)

    /// How many trims the module has made, and whether one is pending: for a probe that waits for
    /// the trim after a drop.
    package static var trimCount: Int { trims.load(ordering: .acquiring) }
    package static var isTrimPending: Bool { scheduled.load(ordering: .acquiring) }

    /// Whether `object` is one of the sampled: one in 1,024, by a hash of its address, so that the
    /// sample does not depend on the allocator's spacing of objects. A multiplication and a shift
    /// on the path of every object freed.
    @inlinable
    @inline(__always)
    static func isSampled(_ object: Node) -> Bool {
        let address = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
        return (address &* 0x9E37_79B9_7F4A_7C15) >> 54 == 0
    }

    /// A sampled object was freed: once enough have been, a check is scheduled.
    @usableFromInline
    static func sampledObjectFreed() {
        let count = freed.wrappingAdd(1, ordering: .relaxed).newValue
        guard count % freedForTrim == 0, enabled.load(ordering: .relaxed),
            !scheduled.exchange(true, ordering: .relaxed)
        else { return }
        check(after: activity, checks: 0)
    }

    /// The sampled objects made and freed, ever: what a check compares.
    static var activity: Int { freed.load(ordering: .relaxed) &+ made.load(ordering: .relaxed) }

    /// Trims once fewer than ``quietFrees`` sampled objects were made or freed in one
    /// ``checkInterval`` after `count`, or after ``checksBeforeTrimmingAnyway`` checks.
    static func check(after count: Int, checks: Int) {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + checkInterval) {
            let now = activity
            guard now &- count < quietFrees || checks >= checksBeforeTrimmingAnyway else {
                return check(after: now, checks: checks + 1)
            }
            if enabled.load(ordering: .relaxed) { trimHeap() }
            trims.add(1, ordering: .relaxed)
            scheduled.store(false, ordering: .releasing)
        }
    }

    /// The address of glibc's `malloc_trim`, which `<malloc.h>` declares and the `Glibc` module
    /// does not: looked up once; 0 where the C library has none.
    static let trimFunction: Int = {
        #if canImport(Glibc)
            return Int(bitPattern: dlsym(nil, "malloc_trim"))
        #else
            return 0
        #endif
    }()

    /// Returns the heap's free pages to the system, where the C library can.
    static func trimHeap() {
        guard let trim = UnsafeRawPointer(bitPattern: trimFunction) else { return }
        typealias Trim = @convention(c) (Int) -> Int32
        _ = unsafeBitCast(trim, to: Trim.self)(0)
    }
}
