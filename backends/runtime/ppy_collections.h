/* ppy_collections.h: the dict classes of `collections` (docs/stdlib.md,
 * "collections"): defaultdict, Counter and OrderedDict are the runtime's dicts
 * (ppy_dict.h) with a flavor, so every dict operation, and every function
 * taking a dict, works on them as on their base class in Python; only a
 * missing key, the repr and their own methods differ.
 *
 * A defaultdict's factory: 1 int, 2 float, 3 str, 4 list, 5 bool.
 */
#ifndef PPY_COLLECTIONS_H
#define PPY_COLLECTIONS_H

#include "ppy_runtime.h"

#ifdef PPY_RT_STRINGS

#ifdef __cplusplus
extern "C" {
#endif

/** The collections class a dict is (ppy_dict's flavor). */
enum { PPY_DICT_PLAIN = 0, PPY_DICT_DEFAULT = 1, PPY_DICT_COUNTER = 2, PPY_DICT_ORDERED = 3 };

typedef struct ppy_str ppy_str;   /* ppy_str.h */
typedef struct ppy_list ppy_list; /* ppy_list.h */

/** An empty dict of descriptor `desc` (`K:V`) of `flavor` (PPY_DICT_DEFAULT,
 * _COUNTER, _ORDERED of ppy_dict.h) and, for a defaultdict, `factory`. */
PPY_RT_API void* ppy_collections_new(const ppy_str* desc, int64_t flavor, int64_t factory);
/** `c.most_common(n)` and `c.most_common()`: (key, count) boxes, by count
 * descending, ties in insertion order (a stable sort, as CPython's). */
PPY_RT_API ppy_list* ppy_counter_most_common(const void* c, int64_t n);
PPY_RT_API ppy_list* ppy_counter_most_common_all(const void* c);
/** `c.update(xs)` of a list (each element counted once), of a str (each
 * character), of another Counter (its counts added). */
PPY_RT_API void ppy_counter_update_list(void* c, const ppy_list* xs);
PPY_RT_API void ppy_counter_update_str(void* c, const ppy_str* s);
PPY_RT_API void ppy_counter_update_counter(void* c, const void* other);
/** `c.subtract(xs)` of a list. */
PPY_RT_API void ppy_counter_subtract_list(void* c, const ppy_list* xs);
/** `c.total()`. */
PPY_RT_API int64_t ppy_counter_total(const void* c);
/** `od.move_to_end(key, last)` of an int key (_i64) or a handle key (_ptr). */
PPY_RT_API void ppy_odict_move_to_end_i64(void* d, int64_t key, int64_t last);
PPY_RT_API void ppy_odict_move_to_end_ptr(void* d, const void* key, int64_t last);
/** The key `od.popitem(last)` takes: the last (or first) one; KeyError when
 * empty. */
PPY_RT_API int64_t ppy_odict_end_key_i64(const void* d, int64_t last);
PPY_RT_API void* ppy_odict_end_key_ptr(const void* d, int64_t last);

#ifdef __cplusplus
}
#endif

#endif /* PPY_RT_STRINGS */

/* Counter's arithmetic and elements(), declared for the same readers. */
#include "ppy_counter.h"

#endif /* PPY_COLLECTIONS_H */
