#ifndef ALLOCATION_COUNTING_H
#define ALLOCATION_COUNTING_H

#include <stdbool.h>
#include <stdint.h>

/// What the C allocator handed out and took back while counting was on, on every thread.
typedef struct {
    int64_t allocations;
    /// The sizes the allocations asked for: exact to the byte, for budgets.
    int64_t requestedBytes;
    /// The allocator's usable sizes (`malloc_usable_size`) of the allocations and of the frees,
    /// on the same basis, so that their difference is what the counted code still holds on the
    /// heap, each block rounded up to the allocator's size class.
    int64_t allocatedBytes;
    int64_t freedBytes;
} AllocationCounts;

/// Whether this process counts: the C library is glibc and no sanitizer replaces its allocator.
/// Elsewhere the functions below do nothing and every count is zero.
bool allocation_counting_is_available(void);

/// Sets every count to zero and starts counting.
void allocation_counting_start(void);

/// Stops counting and returns the counts since the last start.
AllocationCounts allocation_counting_stop(void);

#endif
