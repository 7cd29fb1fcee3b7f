/* ppy_words.c: speedrt2 — the words a split makes, shared (ppy_words.h). */
#include "ppy_words.h"

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)

/* The cache: direct-mapped by a hash of the bytes, words of up to
 * PPY_WORDS_LONGEST bytes. It lives on the collector as an uncollectable
 * (scanned) block, so the words it holds stay alive while it holds them: at
 * most PPY_WORDS_SLOTS small strings (about 400 KiB), whatever the program. */
enum { PPY_WORDS_SLOTS = 8192, PPY_WORDS_LONGEST = 24 };
/* typical: a word and its hash (ppy_hash_bytes, what a dict would compute).
 * The cache finds a word by it, and the words handed out lately are
 * remembered by their handle (ppy_words_seen, the same bound: only the
 * cache's words go there), so a dict looking one up reads its hash there. */
typedef struct ppy_words_slot {
  ppy_str* w;
  uint64_t h;
} ppy_words_slot;
enum { PPY_WORDS_SEEN = 4096 };
static ppy_words_slot* ppy_words_cache;
static ppy_words_slot* ppy_words_seen;
static ppy_str** ppy_words_ints;

/** The slot of ppy_words_seen a handle goes to. */
static inline ppy_words_slot* ppy_words_seen_at(const ppy_str* s) {
  return &ppy_words_seen[((uint64_t)(uintptr_t)s * 0x9e3779b97f4a7c15ULL) >> 52]; /* 12 bits: PPY_WORDS_SEEN */
}

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

/** An uncollectable (scanned) block of `bytes`, zeroed. */
static void* ppy_words_table(size_t bytes) {
  void* t = GC_MALLOC_UNCOLLECTABLE(bytes);
  if (!t) ppy_rt_raise("MemoryError", "");
  memset(t, 0, bytes);
  return t;
}

PPY_RT_INTERNAL ppy_str* ppy_words_piece(const char* b, int64_t n, int ascii) {
  if (n == 0 || n > PPY_WORDS_LONGEST || !PPY_WORDS_SHARED) return ascii ? ppy_words_ascii(b, n) : ppy_str_make(b, n);
  if (PPY_RT_UNLIKELY(!ppy_words_cache)) {
    if (!ppy_rt_gc_ready) ppy_rt_gc_init();
    ppy_words_seen = (ppy_words_slot*)ppy_words_table(PPY_WORDS_SEEN * sizeof(ppy_words_slot));
    ppy_words_cache = (ppy_words_slot*)ppy_words_table(PPY_WORDS_SLOTS * sizeof(ppy_words_slot));
  }
  uint64_t h = ppy_hash_bytes((const unsigned char*)b, n);
  ppy_words_slot* slot = &ppy_words_cache[h >> 51]; /* the top 13 bits: PPY_WORDS_SLOTS */
  ppy_str* w = slot->w;
  if (!(w && slot->h == h && w->len == n && ppy_words_same(PPY_STR_BYTES(w), b, n))) {
    w = ascii ? ppy_words_ascii(b, n) : ppy_str_make(b, n);
    slot->w = w;
    slot->h = h;
  }
  ppy_words_slot* seen = ppy_words_seen_at(w);
  seen->w = w;
  seen->h = h;
  return w;
}

PPY_RT_INTERNAL uint64_t ppy_words_hash(const ppy_str* s) {
  if (ppy_words_seen) {
    const ppy_words_slot* seen = ppy_words_seen_at(s);
    if (seen->w == s) return seen->h;
  }
  return ppy_hash_bytes((const unsigned char*)PPY_STR_BYTES(s), s->len);
}

PPY_RT_INTERNAL ppy_str* ppy_words_small_int(int64_t v) {
  if (PPY_RT_UNLIKELY(!ppy_words_ints)) {
    if (!ppy_rt_gc_ready) ppy_rt_gc_init();
    ppy_words_ints = (ppy_str**)ppy_words_table(PPY_WORDS_SMALL_INTS * sizeof(ppy_str*));
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
