/* ppy_sort.c: the order of a list's elements by their keys, one sort per kind
 * of key (ppy_sort.h). A sort is a stable merge sort of (key, index) pairs: runs
 * of a few pairs by insertion, then merged bottom-up between two buffers. The
 * comparison is the kind's own, inlined into its sort by the macro below. */
#include "ppy_sort.h"

#include "ppy_list.h"
#include "ppy_str.h"

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)

#include <string.h>

/** A key's bits (an int, a float's bits, a str's or a box's handle), its element's
 * index, and for a str (or a tuple whose first leaf is a str or an int) a prefix
 * that orders as the key does where two prefixes differ: most compares of strs
 * then read neither the str nor its box. */
typedef struct ppy_sort_pair {
  int64_t key;
  int64_t at;
  uint64_t prefix;
  uint64_t prefix2; /* speedsort: the same of a tuple key's second leaf (plan->prefix2) */
} ppy_sort_pair;

/** What a pair's prefix holds: nothing, a str key's first bytes and length, or an int's bits. */
enum { PPY_SORT_NO_PREFIX, PPY_SORT_STR_PREFIX, PPY_SORT_INT_PREFIX };

/** What a sort of tuple keys compares: the leaves' kinds, in order. */
typedef struct ppy_sort_plan {
  const char* desc; /* the keys' descriptor, for the generic compare */
  int64_t n;        /* leaves; -1: not a tuple of scalars and strs (the generic compare) */
  int prefix;       /* what the pairs' prefixes hold (PPY_SORT_*_PREFIX) */
  int prefix2;      /* speedsort: what their second prefixes hold (the second leaf's) */
  char kinds[32];
} ppy_sort_plan;

enum { PPY_SORT_RUN = 16 };

/* One stable sort of `a` (n pairs) per comparison LESS(x, y, ctx) (x's key
 * strictly before y's): insertion sorts of PPY_SORT_RUN pairs, then merges
 * that take the right run's pair first only when it is strictly less. */
#define PPY_SORT_DEFINE(NAME, LESS)                                                           \
  static void NAME(ppy_sort_pair* a, ppy_sort_pair* tmp, int64_t n, const void* ctx) {        \
    (void)ctx;                                                                                \
    for (int64_t lo = 0; lo < n; lo += PPY_SORT_RUN) {                                        \
      int64_t hi = lo + PPY_SORT_RUN < n ? lo + PPY_SORT_RUN : n;                             \
      for (int64_t i = lo + 1; i < hi; ++i) {                                                 \
        ppy_sort_pair x = a[i];                                                               \
        int64_t j = i;                                                                        \
        while (j > lo && LESS(x, a[j - 1], ctx)) {                                            \
          a[j] = a[j - 1];                                                                    \
          --j;                                                                                \
        }                                                                                     \
        a[j] = x;                                                                             \
      }                                                                                       \
    }                                                                                         \
    ppy_sort_pair* src = a;                                                                   \
    ppy_sort_pair* dst = tmp;                                                                 \
    for (int64_t width = PPY_SORT_RUN; width < n; width *= 2) {                               \
      for (int64_t lo = 0; lo < n; lo += 2 * width) {                                         \
        int64_t mid = lo + width < n ? lo + width : n;                                        \
        int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;                                 \
        int64_t i = lo, j = mid, k = lo;                                                      \
        if (mid < hi && !LESS(src[mid], src[mid - 1], ctx)) { /* already in order */          \
          memcpy(dst + lo, src + lo, (size_t)(hi - lo) * sizeof *src);                        \
          continue;                                                                           \
        }                                                                                     \
        while (i < mid && j < hi) dst[k++] = LESS(src[j], src[i], ctx) ? src[j++] : src[i++]; \
        while (i < mid) dst[k++] = src[i++];                                                  \
        while (j < hi) dst[k++] = src[j++];                                                   \
      }                                                                                       \
      ppy_sort_pair* t = src;                                                                 \
      src = dst;                                                                              \
      dst = t;                                                                                \
    }                                                                                         \
    if (src != a) memcpy(a, src, (size_t)n * sizeof *a);                                      \
  }

static double ppy_sort_f64(int64_t bits) {
  double v;
  memcpy(&v, &bits, 8);
  return v;
}

/** Python's order of two strs: by code point, which UTF-8's bytes keep. Short
 * keys are the common case: a loop, not a call of memcmp. */
static int ppy_sort_str_cmp(int64_t a, int64_t b) {
  if (a == b) return 0;
  const ppy_str* x = (const ppy_str*)(intptr_t)a;
  const ppy_str* y = (const ppy_str*)(intptr_t)b;
  int64_t n = x->len < y->len ? x->len : y->len;
  const unsigned char* p = (const unsigned char*)PPY_STR_BYTES(x);
  const unsigned char* q = (const unsigned char*)PPY_STR_BYTES(y);
  if (n > 32) {
    int c = memcmp(p, q, (size_t)n);
    if (c) return c < 0 ? -1 : 1;
  } else {
    for (int64_t i = 0; i < n; ++i)
      if (p[i] != q[i]) return p[i] < q[i] ? -1 : 1;
  }
  return x->len < y->len ? -1 : x->len > y->len;
}

/** -1, 0 or 1: the first leaves that differ decide; 2: a float leaf is NaN (the generic compare decides). */
static int ppy_sort_tuple_cmp(const int64_t* x, const int64_t* y, const ppy_sort_plan* plan, int64_t from) {
  for (int64_t k = from; k < plan->n; ++k) {
    switch (plan->kinds[k]) {
      case 'f': {
        double u = ppy_sort_f64(x[k]), v = ppy_sort_f64(y[k]);
        if (u == v) continue;
        if (u < v) return -1;
        if (u > v) return 1;
        return 2;
      }
      case 's': {
        int c = ppy_sort_str_cmp(x[k], y[k]);
        if (c) return c < 0 ? -1 : 1;
        continue;
      }
      case 'n':
        continue;
      default:
        if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
    }
  }
  return 0;
}

static int ppy_sort_desc_less(int64_t a, int64_t b, const ppy_sort_plan* plan, int64_t from) {
  if (plan->n >= 0) {
    int c = ppy_sort_tuple_cmp((const int64_t*)(intptr_t)a, (const int64_t*)(intptr_t)b, plan, from);
    if (c != 2) return c < 0;
  }
  return ppy_slot_less(a, b, plan->desc);
}

/** A str's first 7 bytes, big-endian, zeros past its end, then its length up to
 * 8: where two differ, the strs order as they do (a shorter str pads with 0,
 * below any byte but NUL, and a NUL byte ties there, leaving it to the length:
 * the shorter str is a prefix of the other, so less). Two equal prefixes of a
 * length under 8 are equal strs: no compare reads them. */
static uint64_t ppy_sort_str_prefix(int64_t s) {
  const ppy_str* x = (const ppy_str*)(intptr_t)s;
  const unsigned char* p = (const unsigned char*)PPY_STR_BYTES(x);
  uint64_t v = 0;
  for (int64_t i = 0; i < 7; ++i) v = (v << 8) | (i < x->len ? p[i] : 0);
  return (v << 8) | (uint64_t)(x->len < 8 ? x->len : 8);
}

/** Whether two equal prefixes say the first leaves are equal (an int's bits, or a
 * str under 8 bytes), so the compare goes on from the second. */
static int ppy_sort_prefix_whole(const ppy_sort_plan* plan, uint64_t prefix) {
  return plan->prefix == PPY_SORT_INT_PREFIX || (plan->prefix == PPY_SORT_STR_PREFIX && (prefix & 0xff) < 8);
}

/** speedsort: the same for the second leaf's prefix. */
static int ppy_sort_prefix2_whole(const ppy_sort_plan* plan, uint64_t prefix2) {
  return plan->prefix2 == PPY_SORT_INT_PREFIX || (plan->prefix2 == PPY_SORT_STR_PREFIX && (prefix2 & 0xff) < 8);
}

/** speedsort: a tuple key whose first prefixes tie and say the first leaves are equal: the second
 * prefixes decide where they differ; equal whole second leaves go on from the third leaf. */
static int ppy_sort_desc_after_first(const ppy_sort_pair* x, const ppy_sort_pair* y, const ppy_sort_plan* plan) {
  if (plan->prefix2 == PPY_SORT_NO_PREFIX) return ppy_sort_desc_less(x->key, y->key, plan, 1);
  if (x->prefix2 != y->prefix2) return x->prefix2 < y->prefix2;
  if (!ppy_sort_prefix2_whole(plan, x->prefix2)) return ppy_sort_desc_less(x->key, y->key, plan, 1);
  return plan->n > 2 && ppy_sort_desc_less(x->key, y->key, plan, 2);
}

#define PPY_SORT_I64_LESS(x, y, c) ((x).key < (y).key)
#define PPY_SORT_I64_MORE(x, y, c) ((y).key < (x).key)
#define PPY_SORT_F64_LESS(x, y, c) (ppy_sort_f64((x).key) < ppy_sort_f64((y).key))
#define PPY_SORT_F64_MORE(x, y, c) (ppy_sort_f64((y).key) < ppy_sort_f64((x).key))
/* Prefixes first; where they tie, the keys (a tie of whole first leaves goes on from the second). */
#define PPY_SORT_STR_LESS(x, y, c)                    \
  ((x).prefix != (y).prefix ? (x).prefix < (y).prefix \
                            : ((x).prefix & 0xff) == 8 && ppy_sort_str_cmp((x).key, (y).key) < 0)
#define PPY_SORT_STR_MORE(x, y, c) PPY_SORT_STR_LESS(y, x, c)
#define PPY_SORT_DESC_LESS(x, y, c)                                       \
  ((x).prefix != (y).prefix ? (x).prefix < (y).prefix                     \
   : ppy_sort_prefix_whole((const ppy_sort_plan*)(c), (x).prefix)         \
       ? ppy_sort_desc_after_first(&(x), &(y), (const ppy_sort_plan*)(c)) \
       : ppy_sort_desc_less((x).key, (y).key, (const ppy_sort_plan*)(c), 0))
#define PPY_SORT_DESC_MORE(x, y, c) PPY_SORT_DESC_LESS(y, x, c)

PPY_SORT_DEFINE(ppy_sort_i64_up, PPY_SORT_I64_LESS)
PPY_SORT_DEFINE(ppy_sort_i64_down, PPY_SORT_I64_MORE)
PPY_SORT_DEFINE(ppy_sort_f64_up, PPY_SORT_F64_LESS)
PPY_SORT_DEFINE(ppy_sort_f64_down, PPY_SORT_F64_MORE)
PPY_SORT_DEFINE(ppy_sort_str_up, PPY_SORT_STR_LESS)
PPY_SORT_DEFINE(ppy_sort_str_down, PPY_SORT_STR_MORE)
PPY_SORT_DEFINE(ppy_sort_desc_up, PPY_SORT_DESC_LESS)
PPY_SORT_DEFINE(ppy_sort_desc_down, PPY_SORT_DESC_MORE)

typedef void (*ppy_sort_fn)(ppy_sort_pair*, ppy_sort_pair*, int64_t, const void*);

/** Sorts `keys`' pairs with `up` (or `down` when reversing) and answers the indices in order. */
static ppy_list* ppy_sort_order(const ppy_list* keys, int64_t reverse, ppy_sort_fn up, ppy_sort_fn down,
                                const void* ctx, int prefix, int boxed, int prefix2) {
  int64_t n = keys->len;
  size_t bytes = (size_t)(n ? n : 1) * sizeof(ppy_sort_pair);
  /* Atomic: a key that is a handle stays reachable from `keys` itself. */
  ppy_sort_pair* a = (ppy_sort_pair*)GC_MALLOC_ATOMIC(bytes);
  ppy_sort_pair* tmp = (ppy_sort_pair*)GC_MALLOC_ATOMIC(bytes);
  if (!a || !tmp) ppy_rt_raise("MemoryError", "");
  const int64_t* k = (const int64_t*)keys->data;
  for (int64_t i = 0; i < n; ++i) {
    a[i].key = k[i];
    a[i].at = i;
    int64_t first = boxed && prefix ? ((const int64_t*)(intptr_t)k[i])[0] : k[i];
    a[i].prefix = prefix == PPY_SORT_STR_PREFIX   ? ppy_sort_str_prefix(first)
                  : prefix == PPY_SORT_INT_PREFIX ? (uint64_t)first ^ ((uint64_t)1 << 63)
                                                  : 0;
    int64_t second = prefix2 ? ((const int64_t*)(intptr_t)k[i])[1] : 0;
    a[i].prefix2 = prefix2 == PPY_SORT_STR_PREFIX   ? ppy_sort_str_prefix(second)
                   : prefix2 == PPY_SORT_INT_PREFIX ? (uint64_t)second ^ ((uint64_t)1 << 63)
                                                    : 0;
  }
  (reverse ? down : up)(a, tmp, n, ctx);
  ppy_list* order = ppy_list_make(n, 0);
  int64_t* out = (int64_t*)order->data;
  for (int64_t i = 0; i < n; ++i) out[i] = a[i].at;
  /* Left to the collector: GC_FREE of an atomic block is not safe on every
   * road (the sanitized executables' libgc faults on it). */
  return order;
}

/** Int keys within a small range (a length, a count, a small score: the
 * common keys) sort by counting, which is stable and linear; NULL when the
 * range is too wide for it. */
static ppy_list* ppy_sort_order_counting(const ppy_list* keys, int64_t reverse) {
  int64_t n = keys->len;
  const int64_t* k = (const int64_t*)keys->data;
  if (n < 64) return NULL;
  int64_t lo = k[0], hi = k[0];
  for (int64_t i = 1; i < n; ++i) {
    if (k[i] < lo) lo = k[i];
    if (k[i] > hi) hi = k[i];
  }
  uint64_t span = (uint64_t)hi - (uint64_t)lo;
  if (span >= (uint64_t)n * 2 + 1024) return NULL;
  int64_t buckets = (int64_t)span + 1;
  int64_t* start = (int64_t*)GC_MALLOC_ATOMIC((size_t)(buckets + 1) * sizeof(int64_t));
  if (!start) ppy_rt_raise("MemoryError", "");
  memset(start, 0, (size_t)(buckets + 1) * sizeof(int64_t));
  /* Bucket b holds key lo + b ascending, hi - b descending (reverse=True). */
  for (int64_t i = 0; i < n; ++i) ++start[(reverse ? hi - k[i] : k[i] - lo) + 1];
  for (int64_t b = 0; b < buckets; ++b) start[b + 1] += start[b];
  ppy_list* order = ppy_list_make(n, 0);
  int64_t* out = (int64_t*)order->data;
  for (int64_t i = 0; i < n; ++i) out[start[reverse ? hi - k[i] : k[i] - lo]++] = i;
  return order;
}

PPY_RT_API ppy_list* ppy_sort_order_i64(const ppy_list* keys, int64_t reverse) {
  ppy_list* counted = ppy_sort_order_counting(keys, reverse);
  if (counted) return counted;
  return ppy_sort_order(keys, reverse, ppy_sort_i64_up, ppy_sort_i64_down, NULL, PPY_SORT_NO_PREFIX, 0,
                        PPY_SORT_NO_PREFIX);
}

PPY_RT_API ppy_list* ppy_sort_order_f64(const ppy_list* keys, int64_t reverse) {
  return ppy_sort_order(keys, reverse, ppy_sort_f64_up, ppy_sort_f64_down, NULL, PPY_SORT_NO_PREFIX, 0,
                        PPY_SORT_NO_PREFIX);
}

PPY_RT_API ppy_list* ppy_sort_order_str(const ppy_list* keys, int64_t reverse) {
  return ppy_sort_order(keys, reverse, ppy_sort_str_up, ppy_sort_str_down, NULL, PPY_SORT_STR_PREFIX, 0,
                        PPY_SORT_NO_PREFIX);
}

/** Appends the leaves of the descriptor at `d` to `plan`; answers the descriptor after it, or NULL
 * where a leaf is not a scalar, a str or None. */
static const char* ppy_sort_plan_leaves(ppy_sort_plan* plan, const char* d) {
  if (d[0] == '(') {
    for (++d; d && *d && *d != ')';) d = ppy_sort_plan_leaves(plan, d);
    return d && *d == ')' ? d + 1 : NULL;
  }
  if (!strchr("ibfsn", d[0]) || d[0] == 0 || plan->n >= (int64_t)sizeof plan->kinds) return NULL;
  plan->kinds[plan->n++] = d[0];
  return d + 1;
}

PPY_RT_API ppy_list* ppy_sort_order_desc(const ppy_list* keys, int64_t reverse, const ppy_str* desc) {
  ppy_sort_plan plan;
  plan.desc = PPY_STR_BYTES(desc);
  plan.n = 0;
  plan.prefix = PPY_SORT_NO_PREFIX;
  if (plan.desc[0] != '(' || !ppy_sort_plan_leaves(&plan, plan.desc)) plan.n = -1;
  plan.prefix = plan.n <= 0                                    ? PPY_SORT_NO_PREFIX
                : plan.kinds[0] == 's'                         ? PPY_SORT_STR_PREFIX
                : plan.kinds[0] == 'i' || plan.kinds[0] == 'b' ? PPY_SORT_INT_PREFIX
                                                               : PPY_SORT_NO_PREFIX;
  plan.prefix2 = plan.n < 2 || plan.prefix == PPY_SORT_NO_PREFIX ? PPY_SORT_NO_PREFIX
                 : plan.kinds[1] == 's'                          ? PPY_SORT_STR_PREFIX
                 : plan.kinds[1] == 'i' || plan.kinds[1] == 'b'  ? PPY_SORT_INT_PREFIX
                                                                 : PPY_SORT_NO_PREFIX;
  return ppy_sort_order(keys, reverse, ppy_sort_desc_up, ppy_sort_desc_down, &plan, plan.prefix, 1, plan.prefix2);
}

/* speedsort: the elements by index in C, not an append per element in the compiled code. */
PPY_RT_API ppy_list* ppy_sort_pick(const ppy_list* elems, const ppy_list* order) {
  int64_t n = order->len;
  ppy_list* r = ppy_list_make(n, (int)elems->scanned);
  const int64_t* from = (const int64_t*)elems->data;
  const int64_t* at = (const int64_t*)order->data;
  int64_t* to = (int64_t*)r->data;
  for (int64_t i = 0; i < n; ++i) to[i] = from[at[i]];
  return r;
}

/* speedsort: sorted(l) of ints, bools or strs: the sorts by key with the elements as their own keys
 * (a total order, so the stable result is the one the generic merge sort answers). */
PPY_RT_INTERNAL ppy_list* ppy_sort_values(const ppy_list* l, const char* desc) {
  if (desc[0] == 0 || desc[1] != 0) return NULL;
  if (desc[0] == 'i' || desc[0] == 'b') return ppy_sort_pick(l, ppy_sort_order_i64(l, 0));
  if (desc[0] == 's') return ppy_sort_pick(l, ppy_sort_order_str(l, 0));
  return NULL;
}

PPY_RT_API void ppy_sort_place(ppy_list* elems, const ppy_list* order) {
  ppy_list* r = ppy_sort_pick(elems, order);
  if (r->len) memcpy(elems->data, r->data, (size_t)r->len * 8);
}

#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */
