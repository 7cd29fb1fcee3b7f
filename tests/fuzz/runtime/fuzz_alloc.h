/* fuzz_alloc.h: included before every runtime file of the fuzz build
 * (tests/fuzz/CMakeLists.txt, `-include`). The runtime's blocks come from
 * malloc instead of the collector, so ASan puts redzones around every string,
 * list and dict; the harness frees them all after each input
 * (ppy_fuzz_release_all), which keeps a long run's memory flat. */
#ifndef PPY_FUZZ_ALLOC_H
#define PPY_FUZZ_ALLOC_H

#include <gc.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif
void* ppy_fuzz_alloc(size_t n, int zeroed);
void* ppy_fuzz_realloc(void* p, size_t n);
#ifdef __cplusplus
}
#endif

#undef GC_MALLOC
#undef GC_MALLOC_ATOMIC
#undef GC_REALLOC
#define GC_MALLOC(n) ppy_fuzz_alloc((n), 1)
#define GC_MALLOC_ATOMIC(n) ppy_fuzz_alloc((n), 0)
#define GC_REALLOC(p, n) ppy_fuzz_realloc((p), (n))

#endif /* PPY_FUZZ_ALLOC_H */
