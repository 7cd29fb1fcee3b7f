/* ppy_sort.h: `sorted(key=)` and `list.sort(key=)` (issue 31; docs/runtime.md,
 * "Functions as values"). The compiled code calls the key once per element, in
 * order, into a list of keys; one of these functions, chosen at compile time
 * by the key's type, answers the order of the elements: the indices 0..n-1
 * sorted by key, stably. Each compares keys of one kind directly (an int, a
 * float, a str; a tuple of those by a plan read from its descriptor once),
 * not through the generic compare of a list's elements, and the elements are
 * never boxed into (key, index) pairs.
 *
 * `reverse` non-zero sorts descending as Python's `reverse=True` does: equal
 * keys keep their first order. */
#ifndef PPY_SORT_H
#define PPY_SORT_H

#include "ppy_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef PPY_RT_STRINGS
typedef struct ppy_list ppy_list; /* ppy_list.h */
typedef struct ppy_str ppy_str;   /* ppy_str.h */

/** Keys that are ints or bools. */
PPY_RT_API ppy_list* ppy_sort_order_i64(const ppy_list* keys, int64_t reverse);
/** Keys that are floats (Python's `<`: a NaN is never less). */
PPY_RT_API ppy_list* ppy_sort_order_f64(const ppy_list* keys, int64_t reverse);
/** Keys that are strs (by code point, as Python). */
PPY_RT_API ppy_list* ppy_sort_order_str(const ppy_list* keys, int64_t reverse);
/** Keys of any other type `desc` describes (a list's element descriptor,
 * ppy_list.h): a tuple of ints, bools, floats, strs and None by a plan of its
 * leaves; anything else through the generic compare. */
PPY_RT_API ppy_list* ppy_sort_order_desc(const ppy_list* keys, int64_t reverse, const ppy_str* desc);
/** speedsort: `elems` picked in `order` (one of the above's answers) into a new list: sorted(key=)'s result. */
PPY_RT_API ppy_list* ppy_sort_pick(const ppy_list* elems, const ppy_list* order);
/** speedsort: `elems` rearranged in place in `order`: list.sort(key=)'s result. */
PPY_RT_API void ppy_sort_place(ppy_list* elems, const ppy_list* order);

#ifndef PPY_RT_DECLARATIONS_ONLY
/** Python's `a < b` of two list slots whose descriptor is `d` (ppy_value.c). */
PPY_RT_INTERNAL int ppy_slot_less(int64_t a, int64_t b, const char* d);
/** speedsort: sorted(l) of ints, bools or strs (`desc` "i", "b", "s") by the sorts above; NULL for other elements. */
PPY_RT_INTERNAL ppy_list* ppy_sort_values(const ppy_list* l, const char* desc);
#endif
#endif /* PPY_RT_STRINGS */

#ifdef __cplusplus
}
#endif

#endif /* PPY_SORT_H */
