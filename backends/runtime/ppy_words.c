/* ppy_words.c: speedrt2 — the words a split makes, shared (ppy_words.h). */
#include "ppy_words.h"

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)

/* The cache: direct-mapped by a hash of the bytes, words of up to
 * PPY_WORDS_LONGEST bytes. It lives on the collector as an uncollectable
 * (scanned) block, so the words it holds stay alive while it holds them: at
 * most PPY_WORDS_SLOTS small strings (about 400 KiB), whatever the program. */
enum { PPY_WORDS_SLOTS = 8192, PPY_WORDS_LONGEST = 24 };
static ppy_str** ppy_words_cache;
static ppy_str** ppy_words_ints;

static inline uint64_t ppy_words_r8(const char* p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}
static inline uint64_t ppy_words_r4(const char* p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

/** The first and last words of [b, b + n), 0 < n <= 24, never reading outside it. */
static inline void ppy_words_ends(const char* b, int64_t n, uint64_t* x, uint64_t* y) {
  if (n >= 8) {
    *x = ppy_words_r8(b);
    *y = ppy_words_r8(b + n - 8);
  } else if (n >= 4) {
    *x = ppy_words_r4(b);
    *y = ppy_words_r4(b + n - 4);
  } else {
    *x = (uint64_t)(unsigned char)b[0] | (uint64_t)(unsigned char)b[n >> 1] << 8 |
         (uint64_t)(unsigned char)b[n - 1] << 16;
    *y = 0;
  }
}

/** Whether the `n` bytes at `a` and `b` are equal (n <= 24). */
static inline int ppy_words_same(const char* a, const char* b, int64_t n) {
  if (n > 16) return memcmp(a, b, (size_t)n) == 0;
  if (n >= 8) return ppy_words_r8(a) == ppy_words_r8(b) && ppy_words_r8(a + n - 8) == ppy_words_r8(b + n - 8);
  if (n >= 4) return ppy_words_r4(a) == ppy_words_r4(b) && ppy_words_r4(a + n - 4) == ppy_words_r4(b + n - 4);
  for (int64_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return 0;
  return 1;
}

/** An ASCII str of the `n` bytes at `b` (its code points not counted). */
/* The fuzz build frees every block after each input (tests/fuzz/runtime/fuzz_alloc.h),
 * so nothing may be kept from one input to the next there. */
#ifdef PPY_FUZZ_ALLOC_H
#define PPY_WORDS_SHARED 0
#else
#define PPY_WORDS_SHARED 1
#endif

static ppy_str* ppy_words_ascii(const char* b, int64_t n) {
  ppy_str* r = ppy_str_alloc(n, n);
  memcpy(PPY_STR_BYTES(r), b, (size_t)n);
  return r;
}

static ppy_str** ppy_words_table(int64_t slots) {
  ppy_str** t = (ppy_str**)GC_MALLOC_UNCOLLECTABLE((size_t)slots * sizeof(ppy_str*));
  if (!t) ppy_rt_raise("MemoryError", "");
  memset(t, 0, (size_t)slots * sizeof(ppy_str*));
  return t;
}

PPY_RT_INTERNAL ppy_str* ppy_words_piece(const char* b, int64_t n, int ascii) {
  if (n == 0 || n > PPY_WORDS_LONGEST || !PPY_WORDS_SHARED) return ascii ? ppy_words_ascii(b, n) : ppy_str_make(b, n);
  if (PPY_RT_UNLIKELY(!ppy_words_cache)) {
    if (!ppy_rt_gc_ready) ppy_rt_gc_init();
    ppy_words_cache = ppy_words_table(PPY_WORDS_SLOTS);
  }
  uint64_t x, y;
  ppy_words_ends(b, n, &x, &y);
  uint64_t h = (x * 0x9e3779b97f4a7c15ULL) ^ (y * 0xc2b2ae3d27d4eb4fULL) ^ (uint64_t)n;
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ULL;
  ppy_str** slot = &ppy_words_cache[h >> 51]; /* the top 13 bits: PPY_WORDS_SLOTS */
  ppy_str* w = *slot;
  if (w && w->len == n && ppy_words_same(PPY_STR_BYTES(w), b, n)) return w;
  w = ascii ? ppy_words_ascii(b, n) : ppy_str_make(b, n);
  *slot = w;
  return w;
}

PPY_RT_INTERNAL ppy_str* ppy_words_small_int(int64_t v) {
  if (PPY_RT_UNLIKELY(!ppy_words_ints)) {
    if (!ppy_rt_gc_ready) ppy_rt_gc_init();
    ppy_words_ints = ppy_words_table(PPY_WORDS_SMALL_INTS);
  }
  ppy_str* s = ppy_words_ints[v];
  if (s != NULL) return s;
  char buf[8];
  int64_t n = snprintf(buf, sizeof buf, "%d", (int)v);
  s = ppy_words_ascii(buf, n);
  if (!PPY_WORDS_SHARED) return s;
  ppy_words_ints[v] = s;
  return s;
}

#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */
