/* ppy_value.c: what a list's elements are (ppy_list.h): Python's repr, ==
 * and ordering of a value its descriptor describes (a scalar, a str, a list, a
 * tuple or an optional in its box), and the list methods that compare
 * elements: in, sorted, min and max, index, count, remove. */
#include "ppy_dict.h"
#include "ppy_list.h"
#include "ppy_obj.h"
#include "ppy_sort.h"
#include "ppy_str.h"

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)

/* A tuple or an optional in a list is a box (ppy_list_box): its leaves (the
 * scalars, strs and lists it holds, nested tuples flattened, an optional as
 * its present flag then its value) in 8-byte slots, a bool as 0 or 1. The
 * descriptor of a tuple is `(` its elements' `)`, of an optional `?` and its
 * value's. A box is never changed once made: a tuple is immutable. */

/** The descriptor after the one at `d`. */
static const char* ppy_desc_next(const char* d) {
  if (d[0] == '[' || d[0] == '?') return ppy_desc_next(d + 1);
  if (d[0] == '<') { /* a union: `<` its alternatives `>` (issue 32) */
    for (++d; *d && *d != '>'; d = ppy_desc_next(d)) {
    }
    return *d ? d + 1 : d;
  }
  if (d[0] == '{') { /* a dict or set: `{K:V}` / `{K}` (issue 32) */
    for (++d; *d && *d != '}'; d = ppy_desc_next(d))
      if (*d == ':') ++d;
    return *d ? d + 1 : d;
  }
  if (d[0] != '(') return d + 1;
  for (++d; *d && *d != ')'; d = ppy_desc_next(d)) {
  }
  return *d ? d + 1 : d;
}

/** How many leaves a value of descriptor `d` takes in a box. */
static int64_t ppy_desc_width(const char* d) {
  if (d[0] == '?') return 1 + ppy_desc_width(d + 1);
  if (d[0] == '<') { /* the tag, then each alternative's leaves */
    int64_t w = 1;
    for (++d; *d && *d != '>'; d = ppy_desc_next(d)) w += ppy_desc_width(d);
    return w;
  }
  if (d[0] != '(') return 1;
  int64_t w = 0;
  for (++d; *d && *d != ')'; d = ppy_desc_next(d)) w += ppy_desc_width(d);
  return w;
}

/** A list slot's value as its leaves: a tuple's or an optional's are in its box. */
static const int64_t* ppy_slot_val(const int64_t* slot, const char* d) {
  return (d[0] == '(' || d[0] == '?' || d[0] == '<') ? (const int64_t*)(intptr_t)*slot : slot;
}

/** The alternative a union's leaves at `v` hold (descriptor `*d`, leaves `*v` updated to it). */
static void ppy_union_pick(const int64_t** v, const char** d) {
  int64_t tag = (*v)[0];
  const int64_t* at = *v + 1;
  const char* e = *d + 1;
  for (int64_t i = 0; i < tag && *e && *e != '>'; ++i) {
    at += ppy_desc_width(e);
    e = ppy_desc_next(e);
  }
  *v = at;
  *d = e;
}

/* Objects in a printed container (issue 32): the runtime cannot call a class's
 * __repr__, so the frontend collects the objects (ppy_obj_collect), computes
 * their reprs, and renders the container with them (ppy_list_repr_objs): while
 * it renders, an `o` leaf prints the repr given for its handle. */
static const ppy_list* ppy_subst_objs;
static const ppy_list* ppy_subst_reprs;
static int64_t ppy_subst_next; /* where the next lookup starts: objects mostly come in the order collected */

PPY_RT_INTERNAL int ppy_obj_subst(ppy_text* t, int64_t obj) {
  const ppy_list* objs = ppy_subst_objs;
  if (!objs || objs->len == 0) return 0;
  const int64_t* o = (const int64_t*)objs->data;
  for (int64_t n = 0; n < objs->len; ++n) {
    int64_t k = (ppy_subst_next + n) % objs->len;
    if (o[k] != obj) continue;
    const ppy_str* r = (const ppy_str*)(intptr_t)((const int64_t*)ppy_subst_reprs->data)[k];
    ppy_text_add(t, PPY_STR_BYTES(r), (size_t)r->len);
    ppy_subst_next = k + 1;
    return 1;
  }
  return 0;
}

/** Appends Python's repr of the value whose leaves are at `v`. */
static void ppy_val_repr(ppy_text* t, const int64_t* v, const char* d) {
  char buf[40];
  switch (d[0]) {
    case 'i':
      ppy_text_add(t, buf, (size_t)snprintf(buf, sizeof buf, "%lld", (long long)v[0]));
      break;
    case 'f': {
      double x;
      memcpy(&x, v, 8);
      ppy_text_add(t, buf, (size_t)ppy_format_f64(x, buf));
      break;
    }
    case 'b':
      if (v[0])
        ppy_text_add(t, "True", 4);
      else
        ppy_text_add(t, "False", 5);
      break;
    case 's': {
      const ppy_str* r = ppy_str_repr((const ppy_str*)(intptr_t)v[0]);
      ppy_text_add(t, PPY_STR_BYTES(r), (size_t)r->len);
      break;
    }
    case '?':
      if (v[0])
        ppy_val_repr(t, v + 1, d + 1);
      else
        ppy_text_add(t, "None", 4);
      break;
    case 'n':
      ppy_text_add(t, "None", 4);
      break;
    case '(': {
      ppy_text_add(t, "(", 1);
      int n = 0;
      for (const char* e = d + 1; *e && *e != ')'; e = ppy_desc_next(e), ++n) {
        if (n) ppy_text_add(t, ", ", 2);
        ppy_val_repr(t, v, e);
        v += ppy_desc_width(e);
      }
      if (n == 1)
        ppy_text_add(t, ",)", 2);
      else
        ppy_text_add(t, ")", 1);
      break;
    }
    case '<': { /* a union prints what it holds (issue 32) */
      const int64_t* at = v;
      const char* e = d;
      ppy_union_pick(&at, &e);
      ppy_val_repr(t, at, e);
      break;
    }
    case '{': { /* a dict or set prints by its own descriptor (issue 32) */
      const ppy_str* r = ppy_dict_repr((const void*)(intptr_t)v[0], NULL);
      ppy_text_add(t, PPY_STR_BYTES(r), (size_t)r->len);
      break;
    }
    case 'o': /* an object: the repr the frontend computed (ppy_list_repr_objs) */
      if (!ppy_obj_subst(t, v[0])) ppy_text_add(t, "<object>", 8);
      break;
    default:
      ppy_list_repr_into(t, (const ppy_list*)(intptr_t)v[0], d + 1);
      break;
  }
}

/** Appends to `out` the objects at the `O` leaves of the value at `v` (ppy_obj_collect). */
static void ppy_val_collect(ppy_list* out, const int64_t* v, const char* d) {
  switch (d[0]) {
    case 'O':
      ppy_list_append_ptr(out, (void*)(intptr_t)v[0]);
      break;
    case '?':
      if (v[0]) ppy_val_collect(out, v + 1, d + 1);
      break;
    case '(':
      for (const char* e = d + 1; *e && *e != ')'; e = ppy_desc_next(e)) {
        ppy_val_collect(out, v, e);
        v += ppy_desc_width(e);
      }
      break;
    case '<': {
      const int64_t* at = v;
      const char* e = d;
      ppy_union_pick(&at, &e);
      ppy_val_collect(out, at, e);
      break;
    }
    case '{': { /* `{K:V}` / `{K}`: each live entry's key, then its value */
      const ppy_dict* t = (const ppy_dict*)(intptr_t)v[0];
      const char* kd = d + 1;
      const char* vd = ppy_desc_next(kd);
      vd = *vd == ':' ? vd + 1 : NULL;
      for (int64_t j = 0, end = t->cset ? t->cap : t->n; j < end; ++j) {
        if (t->e[j].live != 1) continue;
        ppy_val_collect(out, ppy_slot_val(&t->e[j].key, kd), kd);
        if (vd) ppy_val_collect(out, ppy_slot_val(&t->e[j].value, vd), vd);
      }
      break;
    }
    case '[': {
      const ppy_list* l = (const ppy_list*)(intptr_t)v[0];
      for (int64_t k = 0; k < l->len; ++k) ppy_val_collect(out, ppy_slot_val((const int64_t*)l->data + k, d + 1), d + 1);
      break;
    }
    default: /* numbers, strs, None, other objects */
      break;
  }
}

/** The objects at the `O` leaves of `l`'s elements, in order (ppy_obj.h). */
PPY_RT_API ppy_list* ppy_obj_collect(const ppy_list* l, const ppy_str* desc) {
  ppy_list* out = ppy_list_new_ptr(0);
  const char* d = PPY_STR_BYTES(desc);
  for (int64_t k = 0; k < l->len; ++k) ppy_val_collect(out, ppy_slot_val((const int64_t*)l->data + k, d), d);
  return out;
}

/** repr(l) whose `o` leaves print as the reprs given for them (ppy_obj.h). */
PPY_RT_API ppy_str* ppy_list_repr_objs(const ppy_list* l, const ppy_str* desc, const ppy_list* objs,
                                       const ppy_list* reprs) {
  ppy_subst_objs = objs;
  ppy_subst_reprs = reprs;
  ppy_subst_next = 0;
  ppy_str* r = ppy_list_repr(l, desc);
  ppy_subst_objs = NULL;
  ppy_subst_reprs = NULL;
  return r;
}

PPY_RT_INTERNAL void ppy_list_repr_into(ppy_text* t, const ppy_list* l, const char* d) {
  if (PPY_RT_UNLIKELY(l->deque)) {  // stdlib (ppy_deque.c)
    ppy_deque_repr_into(t, l, d);
    return;
  }
  ppy_text_add(t, "[", 1);
  for (int64_t k = 0; k < l->len; ++k) {
    if (k) ppy_text_add(t, ", ", 2);
    ppy_val_repr(t, ppy_slot_val((const int64_t*)l->data + k, d), d);
  }
  ppy_text_add(t, "]", 1);
}

/** Python's repr of a list whose elements `desc` describes (ppy_list.h). */
PPY_RT_API ppy_str* ppy_list_repr(const ppy_list* l, const ppy_str* desc) {
  ppy_text t = {NULL, 0, 0};
  ppy_list_repr_into(&t, l, PPY_STR_BYTES(desc));
  return ppy_str_make(t.b, (int64_t)t.n);
}

/** Python's `a == b` of two values whose leaves are at `a` and `b`. */
static int ppy_val_eq(const int64_t* a, const int64_t* b, const char* d) {
  switch (d[0]) {
    case 'f': {
      double x, y;
      memcpy(&x, a, 8);
      memcpy(&y, b, 8);
      return x == y;
    }
    case 's':
      return ppy_str_compare((const ppy_str*)(intptr_t)a[0], (const ppy_str*)(intptr_t)b[0]) == 0;
    case '[':
      return ppy_list_eq_at((const ppy_list*)(intptr_t)a[0], (const ppy_list*)(intptr_t)b[0], d + 1);
    case '{':
      return (int)ppy_dict_eq((const void*)(intptr_t)a[0], (const void*)(intptr_t)b[0]);
    case '<': {
      if (a[0] != b[0]) return 0;
      const int64_t* x = a;
      const int64_t* y = b;
      const char* e = d;
      const char* f = d;
      ppy_union_pick(&x, &e);
      ppy_union_pick(&y, &f);
      return ppy_val_eq(x, y, e);
    }
    case '?':
      if (!a[0] || !b[0]) return !a[0] == !b[0];
      return ppy_val_eq(a + 1, b + 1, d + 1);
    case 'n':
      return 1;
    case '(':
      for (const char* e = d + 1; *e && *e != ')'; e = ppy_desc_next(e)) {
        if (!ppy_val_eq(a, b, e)) return 0;
        a += ppy_desc_width(e);
        b += ppy_desc_width(e);
      }
      return 1;
    default:
      return a[0] == b[0];
  }
}

PPY_RT_INTERNAL void ppy_slot_repr_into(ppy_text* t, const int64_t* slot, const char* d) {
  ppy_val_repr(t, ppy_slot_val(slot, d), d);
}

PPY_RT_INTERNAL int ppy_slots_eq(const int64_t* a, const int64_t* b, const char* d) {
  return ppy_val_eq(ppy_slot_val(a, d), ppy_slot_val(b, d), d);
}

PPY_RT_INTERNAL int ppy_list_eq_at(const ppy_list* a, const ppy_list* b, const char* d) {
  if (a == b) return 1;
  if (a->len != b->len) return 0;
  for (int64_t k = 0; k < a->len; ++k)
    if (!ppy_val_eq(ppy_slot_val((const int64_t*)a->data + k, d), ppy_slot_val((const int64_t*)b->data + k, d), d))
      return 0;
  return 1;
}

/* Ordering comparisons as Python makes them: `op` 0 `<`, 1 `<=`, 2 `>`, 3 `>=`.
 * Two sequences (lists, tuples) compare at their first elements that are not
 * equal, else by their lengths. */
static int ppy_sign_op(int c, int op) { return op == 0 ? c < 0 : op == 1 ? c <= 0 : op == 2 ? c > 0 : c >= 0; }

static int ppy_list_order_at(const ppy_list* a, const ppy_list* b, const char* d, int op);

/* iterfn (issue 31, sorted(key=)): a three-way compare of a value whose order is total (an int, a
 * bool, a str, a tuple of those), so a tuple key compares each member once, not for == and then
 * for <; 2 for the other kinds (a float may be NaN), which take the general path. */
static int ppy_leaf_cmp3(const int64_t* a, const int64_t* b, const char* d) {
  switch (d[0]) {
    case 'i':
    case 'b':
      return a[0] < b[0] ? -1 : a[0] > b[0];
    case 's': {
      if (a[0] == b[0]) return 0;
      int64_t c = ppy_str_compare((const ppy_str*)(intptr_t)a[0], (const ppy_str*)(intptr_t)b[0]);
      return c < 0 ? -1 : c > 0;
    }
    case '(':
      for (const char* e = d + 1; *e && *e != ')'; e = ppy_desc_next(e)) {
        int c = ppy_leaf_cmp3(a, b, e);
        if (c != 0) return c;
        a += ppy_desc_width(e);
        b += ppy_desc_width(e);
      }
      return 0;
    default:
      return 2;
  }
}

static int ppy_val_order(const int64_t* a, const int64_t* b, const char* d, int op) {
  switch (d[0]) {
    case 'f': {
      double x, y;
      memcpy(&x, a, 8);
      memcpy(&y, b, 8);
      return op == 0 ? x < y : op == 1 ? x <= y : op == 2 ? x > y : x >= y;
    }
    case 's': {
      int64_t c = ppy_str_compare((const ppy_str*)(intptr_t)a[0], (const ppy_str*)(intptr_t)b[0]);
      return ppy_sign_op(c < 0 ? -1 : c > 0, op);
    }
    case '[':
      return ppy_list_order_at((const ppy_list*)(intptr_t)a[0], (const ppy_list*)(intptr_t)b[0], d + 1, op);
    case '(': {
      int c = ppy_leaf_cmp3(a, b, d);
      if (c != 2) return ppy_sign_op(c, op);
      for (const char* e = d + 1; *e && *e != ')'; e = ppy_desc_next(e)) {
        if (!ppy_val_eq(a, b, e)) return ppy_val_order(a, b, e, op);
        a += ppy_desc_width(e);
        b += ppy_desc_width(e);
      }
      return ppy_sign_op(0, op);
    }
    default:
      return ppy_sign_op(a[0] < b[0] ? -1 : a[0] > b[0], op);
  }
}

static int ppy_list_order_at(const ppy_list* a, const ppy_list* b, const char* d, int op) {
  int64_t n = a->len < b->len ? a->len : b->len;
  for (int64_t k = 0; k < n; ++k) {
    const int64_t* x = ppy_slot_val((const int64_t*)a->data + k, d);
    const int64_t* y = ppy_slot_val((const int64_t*)b->data + k, d);
    if (!ppy_val_eq(x, y, d)) return ppy_val_order(x, y, d, op);
  }
  return ppy_sign_op(a->len < b->len ? -1 : a->len > b->len, op);
}

PPY_RT_API int64_t ppy_list_lt(const ppy_list* a, const ppy_list* b, const ppy_str* desc) {
  return ppy_list_order_at(a, b, PPY_STR_BYTES(desc), 0);
}
PPY_RT_API int64_t ppy_list_le(const ppy_list* a, const ppy_list* b, const ppy_str* desc) {
  return ppy_list_order_at(a, b, PPY_STR_BYTES(desc), 1);
}
PPY_RT_API int64_t ppy_list_gt(const ppy_list* a, const ppy_list* b, const ppy_str* desc) {
  return ppy_list_order_at(a, b, PPY_STR_BYTES(desc), 2);
}
PPY_RT_API int64_t ppy_list_ge(const ppy_list* a, const ppy_list* b, const ppy_str* desc) {
  return ppy_list_order_at(a, b, PPY_STR_BYTES(desc), 3);
}

/** A box of `n` leaves for a tuple or an optional in a list (above). */
PPY_RT_API void* ppy_list_box(int64_t n) {
  if (PPY_RT_UNLIKELY(!ppy_rt_gc_ready)) ppy_rt_gc_init();
  void* b = GC_MALLOC((size_t)(n > 0 ? n : 1) * 8);
  if (!b) ppy_rt_raise("MemoryError", "");
  return b;
}

/** `a == b` of two lists whose elements `desc` describes: 1 or 0. */
PPY_RT_API int64_t ppy_list_eq(const ppy_list* a, const ppy_list* b, const ppy_str* desc) {
  if (PPY_RT_UNLIKELY(!a->deque != !b->deque)) return 0;  // stdlib: a deque never equals a list
  return ppy_list_eq_at(a, b, PPY_STR_BYTES(desc));
}

/** `v in l` for a list of handles: a str or a list (`desc` describes `l`'s elements). */
PPY_RT_API int64_t ppy_list_contains_ptr(const ppy_list* l, const void* v, const ppy_str* desc) {
  const char* d = PPY_STR_BYTES(desc);
  int64_t bits = (int64_t)(intptr_t)v;
  const int64_t* y = ppy_slot_val(&bits, d);
  for (int64_t k = 0; k < l->len; ++k)
    if (ppy_val_eq(ppy_slot_val((const int64_t*)l->data + k, d), y, d)) return 1;
  return 0;
}

/** Python's `a < b` of two list slots whose descriptor is `d` (ppy_sort.h). */
PPY_RT_INTERNAL int ppy_slot_less(int64_t a, int64_t b, const char* d) {
  return ppy_val_order(ppy_slot_val(&a, d), ppy_slot_val(&b, d), d, 0);
}

/** `sorted(l)`: a new list, stable (a merge sort, as Python's sort is stable). */
PPY_RT_API ppy_list* ppy_list_sorted(const ppy_list* l, const ppy_str* desc) {
  const char* d = PPY_STR_BYTES(desc);
  ppy_list* fast = ppy_sort_values(l, d); /* speedsort (ppy_sort.c) */
  if (fast) return fast;
  int64_t n = l->len;
  ppy_list* r = ppy_list_make(n, (int)l->scanned);
  int64_t* a = (int64_t*)r->data;
  if (n) memcpy(a, l->data, (size_t)n * 8);
  int64_t* tmp =
      (int64_t*)(l->scanned ? GC_MALLOC((size_t)(n ? n : 1) * 8) : GC_MALLOC_ATOMIC((size_t)(n ? n : 1) * 8));
  if (!tmp) ppy_rt_raise("MemoryError", "");
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      int64_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) tmp[k++] = ppy_slot_less(a[j], a[i], d) ? a[j++] : a[i++];
      while (i < mid) tmp[k++] = a[i++];
      while (j < hi) tmp[k++] = a[j++];
    }
    memcpy(a, tmp, (size_t)n * 8);
  }
  return r;
}

/** `min(l)` (`max` non-zero: `max(l)`): the first element no later one beats,
 * as Python keeps it; ValueError for an empty list. */
static int64_t ppy_list_pick(const ppy_list* l, int64_t max, const char* d) {
  if (l->len == 0)
    ppy_rt_raise("ValueError", max ? "max() arg is an empty sequence" : "min() arg is an empty sequence");
  const int64_t* a = (const int64_t*)l->data;
  int64_t best = a[0];
  for (int64_t k = 1; k < l->len; ++k)
    if (max ? ppy_slot_less(best, a[k], d) : ppy_slot_less(a[k], best, d)) best = a[k];
  return best;
}

PPY_RT_API int64_t ppy_list_min_i64(const ppy_list* l, int64_t max) { return ppy_list_pick(l, max, "i"); }
PPY_RT_API double ppy_list_min_f64(const ppy_list* l, int64_t max) {
  int64_t bits = ppy_list_pick(l, max, "f");
  double v;
  memcpy(&v, &bits, 8);
  return v;
}
PPY_RT_API void* ppy_list_min_ptr(const ppy_list* l, int64_t max) {
  return (void*)(intptr_t)ppy_list_pick(l, max, "s");
}
/** `min(l)` / `max(l)` of lists or tuples (`desc` describes the elements): the list's or the box's handle. */
PPY_RT_API void* ppy_list_min_desc(const ppy_list* l, int64_t max, const ppy_str* desc) {
  return (void*)(intptr_t)ppy_list_pick(l, max, PPY_STR_BYTES(desc));
}

/** `l.sort()`: in place, stable (`desc`: ints, floats, bools or strs). */
PPY_RT_API void ppy_list_sort(ppy_list* l, const ppy_str* desc) {
  if (PPY_RT_UNLIKELY(l->deque)) ppy_rt_raise("AttributeError", "'collections.deque' object has no attribute 'sort'");
  ppy_list* r = ppy_list_sorted(l, desc);
  if (l->len) memcpy(l->data, r->data, (size_t)l->len * 8);
}

/** Whether slot `k` of `l` equals `v` (its bits; a str, a list or a box by value). */
static int ppy_slot_eq(const ppy_list* l, int64_t k, int64_t v, const char* d) {
  return ppy_val_eq(ppy_slot_val((const int64_t*)l->data + k, d), ppy_slot_val(&v, d), d);
}

/** The first index of `v`, or -1. */
static int64_t ppy_list_find(const ppy_list* l, int64_t v, const char* d) {
  for (int64_t k = 0; k < l->len; ++k)
    if (ppy_slot_eq(l, k, v, d)) return k;
  return -1;
}

static int64_t ppy_bits_f64(double v) {
  int64_t b;
  memcpy(&b, &v, 8);
  return b;
}

/** `l.index(v)`: ValueError `<repr of v> is not in list`. */
static int64_t ppy_list_index_at(const ppy_list* l, int64_t v, const char* d) {
  int64_t k = ppy_list_find(l, v, d);
  if (k >= 0) return k;
  ppy_text t = {NULL, 0, 0};
  ppy_list one = {1, 1, &v, 0, 0};
  ppy_list_repr_into(&t, &one, d); /* "[v]" */
  ppy_text w = {NULL, 0, 0};
  ppy_text_add(&w, t.b + 1, t.n - 2);
  ppy_text_add(&w, l->deque ? " is not in deque" : " is not in list", l->deque ? 17 : 16); /* and the NUL */
  ppy_rt_raise("ValueError", w.b);
  return -1;
}

PPY_RT_API int64_t ppy_list_index_i64(const ppy_list* l, int64_t v, const ppy_str* desc) {
  return ppy_list_index_at(l, v, PPY_STR_BYTES(desc));
}
PPY_RT_API int64_t ppy_list_index_f64(const ppy_list* l, double v, const ppy_str* desc) {
  return ppy_list_index_at(l, ppy_bits_f64(v), PPY_STR_BYTES(desc));
}
PPY_RT_API int64_t ppy_list_index_ptr(const ppy_list* l, const void* v, const ppy_str* desc) {
  return ppy_list_index_at(l, (int64_t)(intptr_t)v, PPY_STR_BYTES(desc));
}

PPY_RT_API int64_t ppy_list_count_ptr(const ppy_list* l, const void* v, const ppy_str* desc) {
  int64_t c = 0;
  for (int64_t k = 0; k < l->len; ++k) c += ppy_slot_eq(l, k, (int64_t)(intptr_t)v, PPY_STR_BYTES(desc));
  return c;
}

static void ppy_list_remove_at(ppy_list* l, int64_t v, const char* d) {
  int64_t k = ppy_list_find(l, v, d);
  if (k < 0 && l->deque) ppy_list_index_at(l, v, d);  // stdlib: a deque's `<v> is not in deque`
  if (k < 0) ppy_rt_raise("ValueError", "list.remove(x): x not in list");
  ppy_list_cut(l, k);
}

PPY_RT_API void ppy_list_remove_i64(ppy_list* l, int64_t v, const ppy_str* desc) {
  ppy_list_remove_at(l, v, PPY_STR_BYTES(desc));
}
PPY_RT_API void ppy_list_remove_f64(ppy_list* l, double v, const ppy_str* desc) {
  ppy_list_remove_at(l, ppy_bits_f64(v), PPY_STR_BYTES(desc));
}
PPY_RT_API void ppy_list_remove_ptr(ppy_list* l, const void* v, const ppy_str* desc) {
  ppy_list_remove_at(l, (int64_t)(intptr_t)v, PPY_STR_BYTES(desc));
}

#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */
