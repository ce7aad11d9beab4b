#include "CMallocCounter.h"
#include <stddef.h>
#include <errno.h>

/* Defining the allocator symbols in the executable interposes glibc's; each forwards to glibc's
 * internal entry points and counts. Relaxed atomics: the count, not the ordering, matters. */
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static uint64_t allocations;

uint64_t cmalloc_count(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }

static inline void counted(void) { __atomic_add_fetch(&allocations, 1, __ATOMIC_RELAXED); }

void *malloc(size_t n) { counted(); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { counted(); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { counted(); return __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t a, size_t n) { counted(); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { counted(); return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
    counted();
    void *p = __libc_memalign(a, n);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
