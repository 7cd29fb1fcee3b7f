/* ppy_deque.c: collections.deque over the runtime's lists (ppy_deque.h). */
#include "ppy_deque.h"

#include "ppy_list.h"
#include "ppy_str.h"

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)

#include <stdio.h>
#include <string.h>

/** The bound of deque `l`, or -1 for none. */
static int64_t ppy_deque_bound(const ppy_list* l) { return l->deque > 1 ? l->deque - 2 : -1; }

/** AttributeError for a deque method called on a list (the checker types a
 * deque as the list it is, as Python's methods are looked up when called). */
static void ppy_deque_need(const ppy_list* l, const char* method) {
  if (PPY_RT_UNLIKELY(!l->deque)) {
    char m[96];
    snprintf(m, sizeof m, "'list' object has no attribute '%s'", method);
    ppy_raise_copied("AttributeError", m);
  }
}

/** Room for one more element: the first one dropped when `l` is full. */
PPY_RT_INTERNAL void* ppy_deque_push_full(ppy_list* l) {
  static int64_t scratch; /* maxlen 0: what is appended goes nowhere */
  if (l->len == 0) return &scratch;
  ppy_list_cut(l, 0);
  return (char*)l->data + 8 * l->len++;
}

PPY_RT_API ppy_list* ppy_deque_new(const ppy_list* xs, int64_t maxlen) {
  if (maxlen < 0 && maxlen != PPY_DEQUE_UNBOUNDED) ppy_rt_raise("ValueError", "maxlen must be non-negative");
  int64_t skip = maxlen >= 0 && xs->len > maxlen ? xs->len - maxlen : 0; /* the last maxlen are kept */
  ppy_list* l = ppy_list_make(xs->len - skip, (int)xs->scanned);
  if (l->len) memcpy(l->data, (const int64_t*)xs->data + skip, (size_t)l->len * 8);
  l->deque = maxlen >= 0 ? maxlen + 2 : 1;
  return l;
}

/** Makes room on the left of a full bounded deque (its last element dropped);
 * answers 0 when nothing can be kept (maxlen 0). */
static int ppy_deque_room_left(ppy_list* l, const char* method) {
  ppy_deque_need(l, method);
  int64_t bound = ppy_deque_bound(l);
  if (bound == 0) return 0;
  if (bound > 0 && l->len >= bound) ((int64_t*)l->data)[--l->len] = 0;
  return 1;
}

PPY_RT_API void ppy_deque_appendleft_i64(ppy_list* d, int64_t v) {
  if (ppy_deque_room_left(d, "appendleft")) ppy_list_insert_i64(d, 0, v);
}
PPY_RT_API void ppy_deque_appendleft_f64(ppy_list* d, double v) {
  if (ppy_deque_room_left(d, "appendleft")) ppy_list_insert_f64(d, 0, v);
}
PPY_RT_API void ppy_deque_appendleft_ptr(ppy_list* d, void* v) {
  if (ppy_deque_room_left(d, "appendleft")) ppy_list_insert_ptr(d, 0, v);
}

/** The first element's bits, taken out. */
static int64_t ppy_deque_take_left(ppy_list* d) {
  ppy_deque_need(d, "popleft");
  if (PPY_RT_UNLIKELY(d->len == 0)) ppy_rt_raise("IndexError", "pop from an empty deque");
  return ppy_list_cut(d, 0);
}

PPY_RT_API int64_t ppy_deque_popleft_i64(ppy_list* d) { return ppy_deque_take_left(d); }
PPY_RT_API double ppy_deque_popleft_f64(ppy_list* d) {
  int64_t b = ppy_deque_take_left(d);
  double v;
  memcpy(&v, &b, 8);
  return v;
}
PPY_RT_API void* ppy_deque_popleft_ptr(ppy_list* d) { return (void*)(intptr_t)ppy_deque_take_left(d); }

PPY_RT_API void ppy_deque_extendleft(ppy_list* d, const ppy_list* xs) {
  ppy_deque_need(d, "extendleft");
  if (d == xs) xs = ppy_list_copy(xs); /* Python walks the elements as they were */
  for (int64_t k = 0; k < xs->len; ++k)
    if (ppy_deque_room_left(d, "extendleft")) ppy_list_insert_i64(d, 0, ((const int64_t*)xs->data)[k]);
}

/** Reverses slots [lo, hi) of `a`. */
static void ppy_deque_reverse(int64_t* a, int64_t lo, int64_t hi) {
  for (--hi; lo < hi; ++lo, --hi) {
    int64_t t = a[lo];
    a[lo] = a[hi];
    a[hi] = t;
  }
}

PPY_RT_API void ppy_deque_rotate(ppy_list* d, int64_t n) {
  ppy_deque_need(d, "rotate");
  int64_t len = d->len;
  if (len < 2) return;
  n %= len;
  if (n < 0) n += len;
  if (n == 0) return;
  int64_t* a = (int64_t*)d->data; /* right by n: the last n first, in place */
  ppy_deque_reverse(a, 0, len);
  ppy_deque_reverse(a, 0, n);
  ppy_deque_reverse(a, n, len);
}

PPY_RT_API int64_t ppy_deque_maxlen(const ppy_list* d) {
  ppy_deque_need(d, "maxlen");
  return ppy_deque_bound(d);
}

PPY_RT_API ppy_list* ppy_list_copy(const ppy_list* xs) {
  ppy_list* l = ppy_list_make(xs->len, (int)xs->scanned);
  if (xs->len) memcpy(l->data, xs->data, (size_t)xs->len * 8);
  l->deque = xs->deque;
  return l;
}

PPY_RT_INTERNAL void ppy_deque_repr_into(ppy_text* t, const ppy_list* l, const char* d) {
  ppy_list plain = *l;
  plain.deque = 0;
  ppy_text_add(t, "deque(", 6);
  ppy_list_repr_into(t, &plain, d);
  int64_t bound = ppy_deque_bound(l);
  if (bound >= 0) {
    char b[40];
    int n = snprintf(b, sizeof b, ", maxlen=%lld", (long long)bound);
    ppy_text_add(t, b, (size_t)n);
  }
  ppy_text_add(t, ")", 1);
}

PPY_RT_INTERNAL ppy_list* ppy_deque_concat(const ppy_list* a, const ppy_list* b) {
  if (!a->deque || !b->deque)
    ppy_rt_raise("TypeError", a->deque ? "can only concatenate deque (not \"list\") to deque"
                                       : "can only concatenate list (not \"collections.deque\") to list");
  ppy_list* r = ppy_list_copy(a);
  ppy_list_extend(r, b); /* the left one's bound, its first elements dropped */
  return r;
}

#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */
