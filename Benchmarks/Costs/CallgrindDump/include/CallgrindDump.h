#ifndef CALLGRIND_DUMP_H
#define CALLGRIND_DUMP_H

#include <stdbool.h>

/// Whether this build can talk to callgrind: valgrind's `callgrind.h` was there when it was
/// compiled. Elsewhere the function below does nothing.
bool callgrind_dump_is_available(void);

/// Under callgrind, writes the instructions counted since the last dump to a file of their own
/// (`<out-file>.<n>`, labelled `label`) and counts on from zero; outside callgrind, nothing.
void callgrind_dump_stats_at(const char *label);

#endif
