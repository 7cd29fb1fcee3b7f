/* ppy_list.c: a list's storage (ppy_list.h): its bounds check, and on the
 * collector its making, growing, and slots put in and taken out. What its
 * elements are (repr, ==, <) is ppy_value.c's. */
#include "ppy_list.h"

#ifndef PPY_RT_DECLARATIONS_ONLY

PPY_RT_API int64_t ppy_list_len(const ppy_list* l) { return l->len; }

/** The bounds check under every element access (IndexError); `store` picks
 * the assignment's wording. */
PPY_RT_API void ppy_list_check(const ppy_list* l, int64_t i, int32_t store) {
  if (PPY_RT_UNLIKELY((uint64_t)i >= (uint64_t)l->len))
    ppy_rt_raise("IndexError", l->deque ? "deque index out of range"  // stdlib (ppy_deque.c)
                               : store  ? "list assignment index out of range"
                                        : "list index out of range");
}

#ifdef PPY_RT_STRINGS

/* ------------------------------------------------------------------------ */
/* Lists on the collector (docs/runtime.md, "Lists")                         */

/* speedrt2: a list made with room for this many elements or fewer keeps them
 * in its header's block: one allocation, and one cache miss fewer to reach
 * them (a graph's adjacency lists). Appending past the room moves them out. */
enum { PPY_LIST_INLINE = 8 };

PPY_RT_INTERNAL ppy_list* ppy_list_make(int64_t n, int scanned) {
  if (PPY_RT_UNLIKELY(!ppy_rt_gc_ready)) ppy_rt_gc_init();
  if (n < 0) n = 0;
  if (n > PPY_LIST_MAX) ppy_rt_raise("MemoryError", "");
  int64_t cap = n < 4 ? 4 : n;
  size_t bytes = (size_t)cap * 8;
  ppy_list* l;
  if (cap <= PPY_LIST_INLINE) { /* speedrt2: the elements right after the header, one block (zeroed) */
    l = (ppy_list*)GC_MALLOC(sizeof(ppy_list) + bytes);
    if (!l) ppy_rt_raise("MemoryError", "");
    l->data = l + 1;
  } else {
    l = (ppy_list*)GC_MALLOC(sizeof(ppy_list));
    if (!l) ppy_rt_raise("MemoryError", "");
    l->data = scanned ? GC_MALLOC(bytes) : GC_MALLOC_ATOMIC(bytes);
    if (!l->data) ppy_rt_raise("MemoryError", "");
    if (!scanned) memset(l->data, 0, bytes);
  }
  l->len = n;
  l->cap = cap;
  l->scanned = scanned;
  return l;
}

PPY_RT_API ppy_list* ppy_list_new_i64(int64_t n) { return ppy_list_make(n, 0); }
PPY_RT_API ppy_list* ppy_list_new_f64(int64_t n) { return ppy_list_make(n, 0); }
PPY_RT_API ppy_list* ppy_list_new_ptr(int64_t n) { return ppy_list_make(n, 1); }

/** Room for one more element: the elements double when full (the collector's
 * GC_REALLOC keeps an atomic block atomic). Answers the new element's slot. */
static void* ppy_list_push(ppy_list* l) {
  if (PPY_RT_UNLIKELY(l->deque > 1) && l->len >= l->deque - 2) return ppy_deque_push_full(l);  // stdlib: a full deque
  if (l->len == l->cap) {
    if (l->len >= PPY_LIST_MAX) ppy_rt_raise("MemoryError", "");
    int64_t cap = l->cap * 2;
    void* grown;
    if (l->data == (void*)(l + 1)) { /* speedrt2: elements inside the header's block move out */
      grown = l->scanned ? GC_MALLOC((size_t)cap * 8) : GC_MALLOC_ATOMIC((size_t)cap * 8);
      if (grown) memcpy(grown, l->data, (size_t)l->len * 8);
    } else {
      grown = GC_REALLOC(l->data, (size_t)cap * 8);
    }
    if (!grown) ppy_rt_raise("MemoryError", "");
    l->data = grown;
    l->cap = cap;
  }
  return (char*)l->data + 8 * l->len++;
}

PPY_RT_API void ppy_list_append_i64(ppy_list* l, int64_t v) { *(int64_t*)ppy_list_push(l) = v; }
PPY_RT_API void ppy_list_append_f64(ppy_list* l, double v) { *(double*)ppy_list_push(l) = v; }
PPY_RT_API void ppy_list_append_ptr(ppy_list* l, void* v) { *(void**)ppy_list_push(l) = v; }

/** The last element's slot, taken off: IndexError on an empty list. */
static void* ppy_list_take(ppy_list* l) {
  if (PPY_RT_UNLIKELY(l->len == 0)) ppy_rt_raise("IndexError", l->deque ? "pop from an empty deque" : "pop from empty list");
  return (char*)l->data + 8 * --l->len;
}

PPY_RT_API int64_t ppy_list_pop_i64(ppy_list* l) { return *(int64_t*)ppy_list_take(l); }
PPY_RT_API double ppy_list_pop_f64(ppy_list* l) { return *(double*)ppy_list_take(l); }
PPY_RT_API void* ppy_list_pop_ptr(ppy_list* l) {
  void** slot = (void**)ppy_list_take(l);
  void* v = *slot;
  *slot = NULL; /* the collector no longer sees it through the list */
  return v;
}

/** A module variable holding a str or a list (a global `slot` of one handle) is a
 * root of the collector: a global a JIT made lies outside the data the
 * collector scans by itself (docs/runtime.md, "Module variables used by functions"). */
PPY_RT_API void ppy_list_root(void* slot) {
  if (PPY_RT_UNLIKELY(!ppy_rt_gc_ready)) ppy_rt_gc_init();
  GC_add_roots(slot, (char*)slot + sizeof(void*));
}

PPY_RT_API void ppy_list_root_words(void* slot, int64_t words) {
  if (PPY_RT_UNLIKELY(!ppy_rt_gc_ready)) ppy_rt_gc_init();
  GC_add_roots(slot, (char*)slot + words * (int64_t)sizeof(void*));
}

/** Opens a gap of one slot at `i` (Python's insert: negative counts from the
 * end, then clamped to the list) and answers it. */
static void* ppy_list_gap(ppy_list* l, int64_t i) {
  int64_t n = l->len;
  if (PPY_RT_UNLIKELY(l->deque > 1) && n >= l->deque - 2)  // stdlib: a full deque
    ppy_rt_raise("IndexError", "deque already at its maximum size");
  if (i < 0) i += n;
  if (i < 0) i = 0;
  if (i > n) i = n;
  ppy_list_push(l);
  char* d = (char*)l->data;
  memmove(d + 8 * (i + 1), d + 8 * i, (size_t)(n - i) * 8);
  return d + 8 * i;
}

PPY_RT_API void ppy_list_insert_i64(ppy_list* l, int64_t i, int64_t v) { *(int64_t*)ppy_list_gap(l, i) = v; }
PPY_RT_API void ppy_list_insert_f64(ppy_list* l, int64_t i, double v) { *(double*)ppy_list_gap(l, i) = v; }
PPY_RT_API void ppy_list_insert_ptr(ppy_list* l, int64_t i, void* v) { *(void**)ppy_list_gap(l, i) = v; }

/** `l.extend(other)` (`l += other`): `other` may be `l` itself. */
PPY_RT_API void ppy_list_extend(ppy_list* l, const ppy_list* other) {
  int64_t n = other->len;
  for (int64_t k = 0; k < n; ++k) {
    int64_t v = ((const int64_t*)other->data)[k];
    *(int64_t*)ppy_list_push(l) = v;
  }
}

/** `l[start:stop:step]` with Python's bounds (bit 0 of `omitted`: no start,
 * bit 1: no stop); ValueError for a zero step. A new list of the same kind. */
PPY_RT_API ppy_list* ppy_list_slice(const ppy_list* l, int64_t start, int64_t stop, int64_t step, int64_t omitted) {
  if (step == 0) ppy_rt_raise("ValueError", "slice step cannot be zero");
  if (PPY_RT_UNLIKELY(l->deque) && !(omitted == 3 && step == 1))  // stdlib: a deque is copied (list(d)), not sliced
    ppy_rt_raise("TypeError", "sequence index must be integer, not 'slice'");
  int64_t n = l->len;
  int64_t lo, hi;
  if (step > 0) {
    lo = (omitted & 1) ? 0 : start < 0 ? (start + n < 0 ? 0 : start + n) : (start > n ? n : start);
    hi = (omitted & 2) ? n : stop < 0 ? (stop + n < 0 ? 0 : stop + n) : (stop > n ? n : stop);
  } else {
    lo = (omitted & 1) ? n - 1 : start < 0 ? (start + n < -1 ? -1 : start + n) : (start > n - 1 ? n - 1 : start);
    hi = (omitted & 2) ? -1 : stop < 0 ? (stop + n < -1 ? -1 : stop + n) : (stop > n - 1 ? n - 1 : stop);
  }
  int64_t count = 0;
  if (step > 0 && lo < hi) count = (hi - lo + step - 1) / step;
  if (step < 0 && lo > hi) count = (lo - hi + (-step) - 1) / (-step);
  ppy_list* r = ppy_list_make(count, (int)l->scanned);
  for (int64_t k = 0; k < count; ++k) ((int64_t*)r->data)[k] = ((const int64_t*)l->data)[lo + k * step];
  return r;
}

/** `a + b`: a new list. */
PPY_RT_API ppy_list* ppy_list_concat(const ppy_list* a, const ppy_list* b) {
  if (PPY_RT_UNLIKELY(a->deque | b->deque)) return ppy_deque_concat(a, b);  // stdlib (ppy_deque.c)
  ppy_list* r = ppy_list_make(a->len + b->len, (int)(a->scanned | b->scanned));
  if (a->len) memcpy(r->data, a->data, (size_t)a->len * 8);
  if (b->len) memcpy((char*)r->data + 8 * a->len, b->data, (size_t)b->len * 8);
  return r;
}

PPY_RT_API int64_t ppy_list_contains_i64(const ppy_list* l, int64_t v) {
  for (int64_t k = 0; k < l->len; ++k)
    if (((const int64_t*)l->data)[k] == v) return 1;
  return 0;
}

PPY_RT_API int64_t ppy_list_contains_f64(const ppy_list* l, double v) {
  for (int64_t k = 0; k < l->len; ++k)
    if (((const double*)l->data)[k] == v) return 1;
  return 0;
}

/** `sum(l, start)` of ints: OverflowError past 64 bits, as ppy's ints. */
PPY_RT_API int64_t ppy_list_sum_from_i64(const ppy_list* l, int64_t start) {
  int64_t s = start;
  for (int64_t k = 0; k < l->len; ++k)
    if (__builtin_add_overflow(s, ((const int64_t*)l->data)[k], &s)) ppy_rt_overflow();
  return s;
}
PPY_RT_API int64_t ppy_list_sum_i64(const ppy_list* l) { return ppy_list_sum_from_i64(l, 0); }

/** `sum(l, start)` of floats: left to right from `start`, as Python 3.11 adds them. */
PPY_RT_API double ppy_list_sum_from_f64(const ppy_list* l, double start) {
  double s = start;
  for (int64_t k = 0; k < l->len; ++k) s += ((const double*)l->data)[k];
  return s;
}
PPY_RT_API double ppy_list_sum_f64(const ppy_list* l) { return ppy_list_sum_from_f64(l, 0.0); }

PPY_RT_API void ppy_list_reverse(ppy_list* l) {
  int64_t* a = (int64_t*)l->data;
  for (int64_t i = 0, j = l->len - 1; i < j; ++i, --j) {
    int64_t t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

PPY_RT_API void ppy_list_clear(ppy_list* l) {
  if (l->scanned && l->len) memset(l->data, 0, (size_t)l->len * 8); /* nothing kept alive */
  l->len = 0;
}

PPY_RT_API int64_t ppy_list_count_i64(const ppy_list* l, int64_t v) {
  int64_t c = 0;
  for (int64_t k = 0; k < l->len; ++k) c += ((const int64_t*)l->data)[k] == v;
  return c;
}
PPY_RT_API int64_t ppy_list_count_f64(const ppy_list* l, double v) {
  int64_t c = 0;
  for (int64_t k = 0; k < l->len; ++k) c += ((const double*)l->data)[k] == v;
  return c;
}

/** Takes slot `k` out, the later ones moving down; answers its bits. */
PPY_RT_INTERNAL int64_t ppy_list_cut(ppy_list* l, int64_t k) {
  int64_t* a = (int64_t*)l->data;
  int64_t v = a[k];
  memmove(a + k, a + k + 1, (size_t)(l->len - k - 1) * 8);
  a[--l->len] = 0;
  return v;
}

/** `l.pop(i)`: negative from the end; IndexError as Python words it. */
static int64_t ppy_list_pop_index(ppy_list* l, int64_t i) {
  if (PPY_RT_UNLIKELY(l->deque)) ppy_rt_raise("TypeError", "deque.pop() takes no arguments (1 given)");  // stdlib
  if (l->len == 0) ppy_rt_raise("IndexError", "pop from empty list");
  if (i < 0) i += l->len;
  if (i < 0 || i >= l->len) ppy_rt_raise("IndexError", "pop index out of range");
  return ppy_list_cut(l, i);
}

PPY_RT_API int64_t ppy_list_pop_at_i64(ppy_list* l, int64_t i) { return ppy_list_pop_index(l, i); }
PPY_RT_API double ppy_list_pop_at_f64(ppy_list* l, int64_t i) {
  int64_t b = ppy_list_pop_index(l, i);
  double v;
  memcpy(&v, &b, 8);
  return v;
}
PPY_RT_API void* ppy_list_pop_at_ptr(ppy_list* l, int64_t i) { return (void*)(intptr_t)ppy_list_pop_index(l, i); }

#endif /* PPY_RT_STRINGS */

#endif /* PPY_RT_DECLARATIONS_ONLY */
