import AllocationCounting
import Foundation

/// The counter's own check: threads that exit while counting is on, and free memory in a
/// thread-exit destructor that runs after any the counter could have, leave the heap intact and
/// are counted.
///
/// This is how the allocation counter used before (ordo-one's malloc-interposer 1.6.1) corrupted
/// the heap: its per-thread block was freed by its own key's destructor, and a later destructor's
/// `free` was counted into the freed block. Against it this check aborts within a few rounds
/// (`tcache_thread_shutdown(): unaligned tcache chunk detected`), which is the crash `compare`
/// showed in its workflow cells.
enum ThreadExitCheck {
    static let rounds = 2_000
    /// Blocks filled with a pattern between two thread exits: a write into freed memory lands in
    /// one of them once the allocator hands the freed block out again.
    static let blocksPerRound = 64
    static let pattern: Int64 = 0x5A5A_5A5A

    /// Runs the check; prints what it found and returns whether the heap stayed intact.
    static func run() -> Bool {
        allocation_counting_start()
        // A counted allocation first, so that a counter that makes per-thread state has made its
        // key before ours: our destructor then runs after its one.
        free(malloc(32))
        var key = pthread_key_t()
        pthread_key_create(&key) { value in
            free(malloc(24))
            free(value)
        }
        var damaged = 0
        for _ in 0..<rounds {
            exitThread(setting: key)
            let blocks = (0..<blocksPerRound).map { _ in
                let block = malloc(48)!.assumingMemoryBound(to: Int64.self)
                block.initialize(repeating: pattern, count: 6)
                return block
            }
            exitThread(setting: key)
            for block in blocks {
                damaged += (0..<6).filter { block[$0] != pattern }.count
                free(block)
            }
        }
        let counts = allocation_counting_stop()
        // Each round allocates at least its blocks and, per thread, the key's value and the
        // destructor's block.
        let expected = Int64(rounds * (blocksPerRound + 4))
        print(
            "thread-exit check: \(rounds) rounds, \(damaged) damaged words, \(counts.allocations) allocations counted")
        return damaged == 0 && counts.allocations >= expected
    }

    /// Starts a thread that allocates, gives `key` a value and exits, and waits for it.
    private static func exitThread(setting key: pthread_key_t) {
        let box = UnsafeMutablePointer<pthread_key_t>.allocate(capacity: 1)
        box.initialize(to: key)
        var thread = pthread_t()
        pthread_create(
            &thread, nil,
            { argument in
                let key = argument!.assumingMemoryBound(to: pthread_key_t.self)
                free(malloc(16))
                pthread_setspecific(key.pointee, malloc(8))
                return nil
            }, box)
        pthread_join(thread, nil)
        box.deallocate()
    }
}
