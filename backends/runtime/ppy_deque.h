/* ppy_deque.h: `collections.deque` (docs/stdlib.md, "collections"): a
 * runtime list (ppy_list.h) whose `deque` word marks it, so indexing, `len`,
 * `in`, iteration, append, pop, extend and every function taking a list work
 * on it as on Python's deque; the bound (maxlen), the repr, the messages and
 * the left-hand methods are here. A deque's left end is its element 0.
 */
#ifndef PPY_DEQUE_H
#define PPY_DEQUE_H

#include "ppy_runtime.h"

#ifdef PPY_RT_STRINGS

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ppy_list ppy_list; /* ppy_list.h */

/** A maxlen argument of None (any other negative one is ValueError). */
#define PPY_DEQUE_UNBOUNDED INT64_MIN

/** `deque(xs, maxlen)`: a new deque of the elements of `xs` (the last
 * `maxlen` of them), `maxlen` PPY_DEQUE_UNBOUNDED for None. */
PPY_RT_API ppy_list* ppy_deque_new(const ppy_list* xs, int64_t maxlen);
/** `d.appendleft(v)`: a full deque drops its last element. AttributeError on
 * a list, as Python's. */
PPY_RT_API void ppy_deque_appendleft_i64(ppy_list* d, int64_t v);
PPY_RT_API void ppy_deque_appendleft_f64(ppy_list* d, double v);
PPY_RT_API void ppy_deque_appendleft_ptr(ppy_list* d, void* v);
/** `d.popleft()`: IndexError `pop from an empty deque`. */
PPY_RT_API int64_t ppy_deque_popleft_i64(ppy_list* d);
PPY_RT_API double ppy_deque_popleft_f64(ppy_list* d);
PPY_RT_API void* ppy_deque_popleft_ptr(ppy_list* d);
/** `d.extendleft(xs)`: each element of `xs` appended on the left in turn. */
PPY_RT_API void ppy_deque_extendleft(ppy_list* d, const ppy_list* xs);
/** `d.rotate(n)`: `n` steps to the right (to the left when negative). */
PPY_RT_API void ppy_deque_rotate(ppy_list* d, int64_t n);
/** `d.maxlen`: the bound, or -1 for None. */
PPY_RT_API int64_t ppy_deque_maxlen(const ppy_list* d);
/** `xs.copy()` of a list or a deque: the same class, bound included. */
PPY_RT_API ppy_list* ppy_list_copy(const ppy_list* xs);

#ifdef __cplusplus
}
#endif

#endif /* PPY_RT_STRINGS */

#endif /* PPY_DEQUE_H */
