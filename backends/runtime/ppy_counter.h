/* ppy_counter.h: Counter's arithmetic and elements() (docs/stdlib.md,
 * "collections"), over the dict API (ppy_dict.h) and the Counter flavor
 * (ppy_collections.h), with CPython's rules (Lib/collections/__init__.py):
 * results keep positive counts only, the left operand's keys first.
 */
#ifndef PPY_COUNTER_H
#define PPY_COUNTER_H

#include "ppy_runtime.h"

#ifdef PPY_RT_STRINGS

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ppy_list ppy_list; /* ppy_list.h */

/** `a + b` (op 0), `a - b` (1), `a | b` (2), `a & b` (3) of two Counters: a new
 * Counter. `|` of dicts that are not both Counters merges them (a new dict, as
 * Python's dict `|`); any other operator of such dicts is Python's TypeError. */
PPY_RT_API void* ppy_counter_binop(const void* a, const void* b, int64_t op);
/** `list(c.elements())`: each key repeated by its count, in insertion order
 * (counts below one give nothing). */
PPY_RT_API ppy_list* ppy_counter_elements(const void* c);

#ifdef __cplusplus
}
#endif

#endif /* PPY_RT_STRINGS */

#endif /* PPY_COUNTER_H */
