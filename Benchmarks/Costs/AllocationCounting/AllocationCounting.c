// Counts heap allocations for the benchmark tools, on every thread, by defining the C allocator's
// entry points in the executable, which takes them over for the whole process (ELF symbol
// interposition), and forwarding each to glibc's own implementation (`__libc_malloc` and
// friends), so no symbol lookup happens inside an allocation.
//
// Why not a package: ordo-one's malloc-interposer 1.6.1, used before, keeps its counts in a
// per-thread block that its thread-exit destructor frees while the thread's pointer to it stays
// set. A thread that exits while counting is on and frees memory in a later destructor (Core
// Foundation's re-arms itself for later rounds; QN's drain has one) writes into the freed block:
// heap corruption, seen as `double free or corruption (out)` in `compare`'s workflow cells on 16
// cores, and reproduced in a few rounds by `AllocationCounter --thread-exit-check`. These counts
// are process-wide atomics instead: nothing per thread, nothing to free.
#define _GNU_SOURCE
#include "AllocationCounting.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ALLOCATION_COUNTING_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ALLOCATION_COUNTING_SANITIZER 1
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(ALLOCATION_COUNTING_SANITIZER)

#include <errno.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>

// glibc's allocator under its own names (exported since glibc 2.2.5).
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static atomic_bool counting = false;
static atomic_llong allocations = 0;
static atomic_llong requestedBytes = 0;
static atomic_llong allocatedBytes = 0;
static atomic_llong freedBytes = 0;

static inline void countAllocation(void *pointer, size_t requested) {
    if (pointer != NULL && atomic_load_explicit(&counting, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&requestedBytes, (long long)requested, memory_order_relaxed);
        atomic_fetch_add_explicit(&allocatedBytes, (long long)malloc_usable_size(pointer), memory_order_relaxed);
    }
}

static inline void countFree(void *pointer) {
    if (pointer != NULL && atomic_load_explicit(&counting, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&freedBytes, (long long)malloc_usable_size(pointer), memory_order_relaxed);
    }
}

void *malloc(size_t size) {
    void *pointer = __libc_malloc(size);
    countAllocation(pointer, size);
    return pointer;
}

void *calloc(size_t count, size_t size) {
    void *pointer = __libc_calloc(count, size);
    countAllocation(pointer, count * size);
    return pointer;
}

void *realloc(void *pointer, size_t size) {
    // Counted as a free and a new allocation, moved or not (`realloc(NULL, n)` is `malloc(n)`).
    countFree(pointer);
    void *result = __libc_realloc(pointer, size);
    if (result == NULL && pointer != NULL && size != 0) {
        // Failed: the old block is still allocated, so take back its free.
        if (atomic_load_explicit(&counting, memory_order_relaxed)) {
            atomic_fetch_sub_explicit(&freedBytes, (long long)malloc_usable_size(pointer), memory_order_relaxed);
        }
        return NULL;
    }
    countAllocation(result, size);
    return result;
}

void free(void *pointer) {
    countFree(pointer);
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    void *pointer = __libc_memalign(alignment, size);
    countAllocation(pointer, size);
    return pointer;
}

void *aligned_alloc(size_t alignment, size_t size) { return memalign(alignment, size); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) {
        return EINVAL;
    }
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    countAllocation(pointer, size);
    *result = pointer;
    return 0;
}

void *valloc(size_t size) {
    void *pointer = __libc_valloc(size);
    countAllocation(pointer, size);
    return pointer;
}

void *pvalloc(size_t size) {
    void *pointer = __libc_pvalloc(size);
    countAllocation(pointer, size);
    return pointer;
}

bool allocation_counting_is_available(void) { return true; }

void allocation_counting_start(void) {
    atomic_store_explicit(&counting, false, memory_order_seq_cst);
    atomic_store_explicit(&allocations, 0, memory_order_relaxed);
    atomic_store_explicit(&requestedBytes, 0, memory_order_relaxed);
    atomic_store_explicit(&allocatedBytes, 0, memory_order_relaxed);
    atomic_store_explicit(&freedBytes, 0, memory_order_relaxed);
    atomic_store_explicit(&counting, true, memory_order_seq_cst);
}

AllocationCounts allocation_counting_stop(void) {
    atomic_store_explicit(&counting, false, memory_order_seq_cst);
    AllocationCounts counts = {
        .allocations = atomic_load_explicit(&allocations, memory_order_relaxed),
        .requestedBytes = atomic_load_explicit(&requestedBytes, memory_order_relaxed),
        .allocatedBytes = atomic_load_explicit(&allocatedBytes, memory_order_relaxed),
        .freedBytes = atomic_load_explicit(&freedBytes, memory_order_relaxed),
    };
    return counts;
}

#else

bool allocation_counting_is_available(void) { return false; }
void allocation_counting_start(void) {}
AllocationCounts allocation_counting_stop(void) {
    AllocationCounts counts = {0, 0, 0, 0};
    return counts;
}

#endif
