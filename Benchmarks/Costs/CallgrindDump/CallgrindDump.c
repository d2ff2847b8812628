#include "CallgrindDump.h"

// valgrind's client requests are a sequence of instructions that does nothing outside valgrind,
// so the tool runs the same way with and without it; the header comes with valgrind itself.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>

bool callgrind_dump_is_available(void) { return true; }

void callgrind_dump_stats_at(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }
#else
bool callgrind_dump_is_available(void) { return false; }

void callgrind_dump_stats_at(const char *label) { (void)label; }
#endif
