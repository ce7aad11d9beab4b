#ifndef STROKES_CMALLOC_COUNTER_H
#define STROKES_CMALLOC_COUNTER_H
#include <stdint.h>

/* Number of allocations (malloc, calloc, realloc, memalign family) since the process started.
 * Linked only into strokes-bench: it interposes glibc's allocator for that executable. */
uint64_t cmalloc_count(void);

#endif
