/* ppy_list.h: lists of the native runtime (docs/runtime.md, "Lists").
 *
 * A list (a `buffer<T>` on the IR) is a handle to its length, capacity and
 * elements, 8 bytes each (i64, f64, a bool as i64 0 or 1, a pointer: a str, a
 * list, or a box holding a tuple or an optional). The handle never moves; the
 * elements move when the list grows. Its header and bounds check need nothing
 * more; everything else lives on the collector (PPY_RT_STRINGS): ppy_list.c
 * holds the storage (making, growing, slots in and out), ppy_value.c what the
 * elements are (repr, ==, <, and the methods that compare them).
 *
 * A list's element type travels as a descriptor string: `i` int, `f` float,
 * `b` bool, `s` str, `[` followed by the descriptor of a list's elements, `n`
 * the value None itself (a tuple element `(1, None)`: one leaf, 0), `(` a
 * tuple's elements `)`, `?` and an optional's value's.
 */
#ifndef PPY_LIST_H
#define PPY_LIST_H

#include "ppy_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A list's header; `data` holds its elements (PPY_LIST_I64, PPY_LIST_F64). */
typedef struct ppy_list {
  int64_t len;
  int64_t cap;
  void* data;
  int64_t scanned; /* 1: the elements are handles the collector must see */
  int64_t deque;   /* stdlib (ppy_deque.c): 0 a list; a collections.deque: 1, or its maxlen + 2 */
} ppy_list;

#define PPY_LIST_I64(l) ((int64_t*)(l)->data)
#define PPY_LIST_F64(l) ((double*)(l)->data)

PPY_RT_API int64_t ppy_list_len(const ppy_list* l);
PPY_RT_API void ppy_list_check(const ppy_list* l, int64_t i, int32_t store);

/** The list functions that need no collector (part of PPY_RT_SYMBOLS). */
#define PPY_LIST_GUARD_SYMBOLS(X) X(ppy_list_len) X(ppy_list_check)

#ifdef PPY_RT_STRINGS
typedef struct ppy_str ppy_str; /* ppy_str.h */

PPY_RT_API ppy_list* ppy_list_new_i64(int64_t n);
PPY_RT_API ppy_list* ppy_list_new_f64(int64_t n);
PPY_RT_API ppy_list* ppy_list_new_ptr(int64_t n);
PPY_RT_API void ppy_list_append_i64(ppy_list* l, int64_t v);
PPY_RT_API void ppy_list_append_f64(ppy_list* l, double v);
PPY_RT_API void ppy_list_append_ptr(ppy_list* l, void* v);
PPY_RT_API int64_t ppy_list_pop_i64(ppy_list* l);
PPY_RT_API double ppy_list_pop_f64(ppy_list* l);
PPY_RT_API void* ppy_list_pop_ptr(ppy_list* l);
PPY_RT_API ppy_str* ppy_list_repr(const ppy_list* l, const ppy_str* desc);
PPY_RT_API int64_t ppy_list_eq(const ppy_list* a, const ppy_list* b, const ppy_str* desc);
PPY_RT_API void ppy_list_insert_i64(ppy_list* l, int64_t i, int64_t v);
PPY_RT_API void ppy_list_insert_f64(ppy_list* l, int64_t i, double v);
PPY_RT_API void ppy_list_insert_ptr(ppy_list* l, int64_t i, void* v);
PPY_RT_API void ppy_list_extend(ppy_list* l, const ppy_list* other);
PPY_RT_API ppy_list* ppy_list_slice(const ppy_list* l, int64_t start, int64_t stop, int64_t step, int64_t omitted);
PPY_RT_API ppy_list* ppy_list_concat(const ppy_list* a, const ppy_list* b);
PPY_RT_API int64_t ppy_list_contains_i64(const ppy_list* l, int64_t v);
PPY_RT_API int64_t ppy_list_contains_f64(const ppy_list* l, double v);
PPY_RT_API int64_t ppy_list_contains_ptr(const ppy_list* l, const void* v, const ppy_str* desc);
PPY_RT_API ppy_list* ppy_list_sorted(const ppy_list* l, const ppy_str* desc);
PPY_RT_API int64_t ppy_list_sum_i64(const ppy_list* l);
PPY_RT_API double ppy_list_sum_f64(const ppy_list* l);
PPY_RT_API int64_t ppy_list_min_i64(const ppy_list* l, int64_t max);
PPY_RT_API double ppy_list_min_f64(const ppy_list* l, int64_t max);
PPY_RT_API void* ppy_list_min_ptr(const ppy_list* l, int64_t max);
PPY_RT_API void ppy_list_sort(ppy_list* l, const ppy_str* desc);
PPY_RT_API void ppy_list_reverse(ppy_list* l);
PPY_RT_API void ppy_list_clear(ppy_list* l);
PPY_RT_API int64_t ppy_list_index_i64(const ppy_list* l, int64_t v, const ppy_str* desc);
PPY_RT_API int64_t ppy_list_index_f64(const ppy_list* l, double v, const ppy_str* desc);
PPY_RT_API int64_t ppy_list_index_ptr(const ppy_list* l, const void* v, const ppy_str* desc);
PPY_RT_API int64_t ppy_list_count_i64(const ppy_list* l, int64_t v);
PPY_RT_API int64_t ppy_list_count_f64(const ppy_list* l, double v);
PPY_RT_API int64_t ppy_list_count_ptr(const ppy_list* l, const void* v, const ppy_str* desc);
PPY_RT_API void ppy_list_remove_i64(ppy_list* l, int64_t v, const ppy_str* desc);
PPY_RT_API void ppy_list_remove_f64(ppy_list* l, double v, const ppy_str* desc);
PPY_RT_API void ppy_list_remove_ptr(ppy_list* l, const void* v, const ppy_str* desc);
PPY_RT_API int64_t ppy_list_pop_at_i64(ppy_list* l, int64_t i);
PPY_RT_API double ppy_list_pop_at_f64(ppy_list* l, int64_t i);
PPY_RT_API void* ppy_list_pop_at_ptr(ppy_list* l, int64_t i);
PPY_RT_API void* ppy_list_box(int64_t n);
PPY_RT_API int64_t ppy_list_sum_from_i64(const ppy_list* l, int64_t start);
PPY_RT_API double ppy_list_sum_from_f64(const ppy_list* l, double start);
PPY_RT_API void ppy_list_root(void* slot);
/** ppy_list_root for a global of `words` machine words (a tuple of handles). */
PPY_RT_API void ppy_list_root_words(void* slot, int64_t words);
PPY_RT_API void* ppy_list_min_desc(const ppy_list* l, int64_t max, const ppy_str* desc);
PPY_RT_API int64_t ppy_list_lt(const ppy_list* a, const ppy_list* b, const ppy_str* desc);
PPY_RT_API int64_t ppy_list_le(const ppy_list* a, const ppy_list* b, const ppy_str* desc);
PPY_RT_API int64_t ppy_list_gt(const ppy_list* a, const ppy_list* b, const ppy_str* desc);
PPY_RT_API int64_t ppy_list_ge(const ppy_list* a, const ppy_list* b, const ppy_str* desc);

/** The list functions on the collector compiled code may call (part of
 * PPY_STR_SYMBOLS). */
/* clang-format off */
#define PPY_LIST_SYMBOLS(X)                                                                                        \
  X(ppy_list_new_i64) X(ppy_list_new_f64) X(ppy_list_new_ptr) X(ppy_list_append_i64) X(ppy_list_append_f64)   \
  X(ppy_list_append_ptr) X(ppy_list_pop_i64) X(ppy_list_pop_f64) X(ppy_list_pop_ptr) X(ppy_list_repr)         \
  X(ppy_list_eq) X(ppy_list_insert_i64) X(ppy_list_insert_f64) X(ppy_list_insert_ptr) X(ppy_list_extend)      \
  X(ppy_list_slice) X(ppy_list_concat) X(ppy_list_contains_i64) X(ppy_list_contains_f64)                      \
  X(ppy_list_contains_ptr) X(ppy_list_sorted) X(ppy_list_sum_i64) X(ppy_list_sum_f64) X(ppy_list_min_i64)     \
  X(ppy_list_min_f64) X(ppy_list_min_ptr) X(ppy_list_sort) X(ppy_list_reverse) X(ppy_list_clear)              \
  X(ppy_list_index_i64) X(ppy_list_index_f64) X(ppy_list_index_ptr) X(ppy_list_count_i64)                     \
  X(ppy_list_count_f64) X(ppy_list_count_ptr) X(ppy_list_remove_i64) X(ppy_list_remove_f64)                   \
  X(ppy_list_remove_ptr) X(ppy_list_pop_at_i64) X(ppy_list_pop_at_f64) X(ppy_list_pop_at_ptr)                 \
  X(ppy_list_box) X(ppy_list_lt) X(ppy_list_le) X(ppy_list_gt) X(ppy_list_ge) X(ppy_list_sum_from_i64)        \
  X(ppy_list_sum_from_f64) X(ppy_list_root) X(ppy_list_min_desc)              \
  X(ppy_list_root_words)
/* clang-format on */

#ifndef PPY_RT_DECLARATIONS_ONLY
/* Shared with the runtime's other files. */
typedef struct ppy_text ppy_text; /* ppy_str.h */

/** Elements past this count raise MemoryError, as the interpreter. */
#define PPY_LIST_MAX ((int64_t)1 << 31)

/** A list of `n` zero elements (n < 0 counts as 0). `scanned`: its elements
 * may be handles (str, list), so the collector scans them; numbers are atomic. */
PPY_RT_INTERNAL ppy_list* ppy_list_make(int64_t n, int scanned);
/** Takes slot `k` out, the later ones moving down; answers its bits. */
PPY_RT_INTERNAL int64_t ppy_list_cut(ppy_list* l, int64_t k);
/** Appends Python's repr of `l`, whose elements descriptor `d` describes (ppy_value.c). */
PPY_RT_INTERNAL void ppy_list_repr_into(ppy_text* t, const ppy_list* l, const char* d);
/** Appends the repr given for object `obj` while ppy_list_repr_objs renders; 0 when none is (ppy_value.c). */
PPY_RT_INTERNAL int ppy_obj_subst(ppy_text* t, int64_t obj);
/** Python's `a == b` of two lists whose elements `d` describes (ppy_value.c). */
PPY_RT_INTERNAL int ppy_list_eq_at(const ppy_list* a, const ppy_list* b, const char* d);
/** Appends Python's repr of the value in the 8-byte slot `slot` (a list's or a dict's;
 * a tuple's box there), whose descriptor is `d` (ppy_value.c). */
PPY_RT_INTERNAL void ppy_slot_repr_into(ppy_text* t, const int64_t* slot, const char* d);
/** Python's `a == b` of the values in the slots `a` and `b`, described by `d` (ppy_value.c). */
PPY_RT_INTERNAL int ppy_slots_eq(const int64_t* a, const int64_t* b, const char* d);

/* stdlib: a deque is a list whose `deque` word is set (ppy_deque.c). */
/** The slot a full bounded deque appends into: its first element dropped (a
 * scratch slot for maxlen 0, which keeps nothing). */
PPY_RT_INTERNAL void* ppy_deque_push_full(ppy_list* l);
/** `deque([...])` or `deque([...], maxlen=n)`. */
PPY_RT_INTERNAL void ppy_deque_repr_into(ppy_text* t, const ppy_list* l, const char* d);
/** `a + b` where either is a deque: a deque of both, or Python's TypeError. */
PPY_RT_INTERNAL ppy_list* ppy_deque_concat(const ppy_list* a, const ppy_list* b);
#endif /* PPY_RT_DECLARATIONS_ONLY */
#endif /* PPY_RT_STRINGS */

#ifdef __cplusplus
}
#endif

/* stdlib: collections.deque, declared for whoever reads the ABI table through this header. */
#include "ppy_deque.h"
/* sorted(key=) (issue 31): the orders by key, declared for whoever reads the ABI table through this header. */
#include "ppy_sort.h"

#endif /* PPY_LIST_H */
