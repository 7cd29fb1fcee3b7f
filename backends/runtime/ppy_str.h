/* ppy_str.h: strings of the native runtime (docs/runtime.md, "Strings").
 *
 * It follows ppy_runtime.h (the same conventions: PPY_RT_API, declarations
 * only under PPY_RT_DECLARATIONS_ONLY) and is embedded after it, so the C
 * backend pastes both and the LLVM road compiles both. Everything here is
 * compiled only with PPY_RT_STRINGS defined: a program that uses no string
 * needs neither this code nor the collector.
 *
 * Memory: a string lives on the heap of Boehm's conservative collector
 * (libgc, `-lgc`): GC_MALLOC_ATOMIC, never freed by hand. Compiled code keeps
 * handles in registers, stack slots and lists, all of which the collector
 * scans, so a string lives exactly as long as something can reach it.
 *
 * A string is a handle (`ptr<i8>` on the IR): a header (its length in bytes and
 * in code points) followed by its UTF-8 bytes and a NUL. Lengths, indices and
 * slices count code points, as Python's do; an ASCII string (as many code
 * points as bytes) indexes in one step.
 */
#if defined(PPY_RT_STRINGS) && !defined(PPY_STR_H)
#define PPY_STR_H

#ifndef PPY_RUNTIME_H /* pasted after it, it is already there */
#include "ppy_runtime.h"
#endif

#ifndef PPY_RT_DECLARATIONS_ONLY
#include <gc.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** A string's header; PPY_STR_BYTES(s) are its bytes (NUL-terminated). */
typedef struct ppy_str {
  int64_t len; /* bytes */
  int64_t ncp; /* code points */
} ppy_str;

#define PPY_STR_BYTES(s) ((char*)(s) + sizeof(ppy_str))

PPY_RT_API void ppy_rt_gc_init(void);
PPY_RT_API ppy_str* ppy_str_literal(const char* bytes, int64_t n);
PPY_RT_API void ppy_print_string(const ppy_str* s);
PPY_RT_API ppy_str* ppy_str_concat(const ppy_str* a, const ppy_str* b);
PPY_RT_API ppy_str* ppy_str_repeat(const ppy_str* s, int64_t n);
PPY_RT_API int64_t ppy_str_len(const ppy_str* s);
PPY_RT_API ppy_str* ppy_str_index(const ppy_str* s, int64_t i);
PPY_RT_API ppy_str* ppy_str_slice(const ppy_str* s, int64_t start, int64_t stop, int64_t step, int64_t omitted);
PPY_RT_API int64_t ppy_str_compare(const ppy_str* a, const ppy_str* b);
PPY_RT_API int64_t ppy_str_contains(const ppy_str* hay, const ppy_str* needle);
PPY_RT_API ppy_str* ppy_str_from_i64(int64_t v);
PPY_RT_API ppy_str* ppy_str_from_f64(double v);
PPY_RT_API ppy_str* ppy_str_from_bool(int64_t v);
PPY_RT_API int64_t ppy_str_to_i64(const ppy_str* s);
PPY_RT_API double ppy_str_to_f64(const ppy_str* s);
PPY_RT_API ppy_str* ppy_str_upper(const ppy_str* s);
PPY_RT_API ppy_str* ppy_str_lower(const ppy_str* s);
PPY_RT_API ppy_str* ppy_str_strip(const ppy_str* s);
PPY_RT_API ppy_str* ppy_str_lstrip(const ppy_str* s);
PPY_RT_API ppy_str* ppy_str_rstrip(const ppy_str* s);
PPY_RT_API int64_t ppy_str_startswith(const ppy_str* s, const ppy_str* prefix);
PPY_RT_API int64_t ppy_str_endswith(const ppy_str* s, const ppy_str* suffix);
PPY_RT_API int64_t ppy_str_find(const ppy_str* s, const ppy_str* sub);
PPY_RT_API int64_t ppy_str_count(const ppy_str* s, const ppy_str* sub);
PPY_RT_API ppy_str* ppy_str_replace(const ppy_str* s, const ppy_str* old, const ppy_str* with);
PPY_RT_API ppy_str* ppy_str_repr(const ppy_str* s);
PPY_RT_API ppy_str* ppy_str_format_i64(int64_t v, const ppy_str* spec);
PPY_RT_API ppy_str* ppy_str_format_f64(double v, const ppy_str* spec);
PPY_RT_API ppy_str* ppy_str_format_str(const ppy_str* s, const ppy_str* spec);
PPY_RT_API int64_t ppy_str_ord(const ppy_str* s);
PPY_RT_API ppy_str* ppy_str_chr(int64_t cp);
PPY_RT_API PPY_RT_NORETURN void ppy_exc_raise(const ppy_str* name, const ppy_str* message);
PPY_RT_API ppy_str* ppy_exc_name(void);
PPY_RT_API ppy_str* ppy_exc_message(void);
PPY_RT_API int64_t ppy_exc_matches(const ppy_str* name, const ppy_str* cls);
PPY_RT_API void ppy_exc_set(const char* name, const char* message);
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
PPY_RT_API ppy_str* ppy_str_join(const ppy_str* sep, const ppy_list* parts);
PPY_RT_API ppy_list* ppy_str_split(const ppy_str* s, const ppy_str* sep);
PPY_RT_API ppy_list* ppy_str_split_ws(const ppy_str* s);
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
PPY_RT_API void* ppy_list_min_desc(const ppy_list* l, int64_t max, const ppy_str* desc);
PPY_RT_API int64_t ppy_list_lt(const ppy_list* a, const ppy_list* b, const ppy_str* desc);
PPY_RT_API int64_t ppy_list_le(const ppy_list* a, const ppy_list* b, const ppy_str* desc);
PPY_RT_API int64_t ppy_list_gt(const ppy_list* a, const ppy_list* b, const ppy_str* desc);
PPY_RT_API int64_t ppy_list_ge(const ppy_list* a, const ppy_list* b, const ppy_str* desc);

/** The string functions compiled code may call, for a JIT's symbol table. */
/* clang-format off */
#define PPY_STR_SYMBOLS(X)                                                                              \
  X(ppy_str_literal) X(ppy_print_string) X(ppy_str_concat) X(ppy_str_repeat) X(ppy_str_len)            \
  X(ppy_str_index) X(ppy_str_slice) X(ppy_str_compare) X(ppy_str_contains) X(ppy_str_from_i64)         \
  X(ppy_str_from_f64) X(ppy_str_from_bool) X(ppy_str_to_i64) X(ppy_str_to_f64) X(ppy_str_upper)        \
  X(ppy_str_lower) X(ppy_str_strip) X(ppy_str_lstrip) X(ppy_str_rstrip) X(ppy_str_startswith)          \
  X(ppy_str_endswith) X(ppy_str_find) X(ppy_str_count) X(ppy_str_replace) X(ppy_str_repr)         \
  X(ppy_str_format_i64) X(ppy_str_format_f64) X(ppy_str_format_str) X(ppy_str_ord) X(ppy_str_chr)        \
  X(ppy_exc_raise) X(ppy_exc_name) X(ppy_exc_message) X(ppy_exc_matches) X(ppy_exc_set)                   \
  X(ppy_list_new_i64) X(ppy_list_new_f64) X(ppy_list_new_ptr) X(ppy_list_append_i64) X(ppy_list_append_f64)   \
  X(ppy_list_append_ptr) X(ppy_list_pop_i64) X(ppy_list_pop_f64) X(ppy_list_pop_ptr) X(ppy_list_repr)         \
  X(ppy_list_eq) X(ppy_list_insert_i64) X(ppy_list_insert_f64) X(ppy_list_insert_ptr) X(ppy_list_extend)      \
  X(ppy_list_slice) X(ppy_list_concat) X(ppy_list_contains_i64) X(ppy_list_contains_f64)                      \
  X(ppy_list_contains_ptr) X(ppy_list_sorted) X(ppy_list_sum_i64) X(ppy_list_sum_f64) X(ppy_list_min_i64)     \
  X(ppy_list_min_f64) X(ppy_list_min_ptr) X(ppy_str_join) X(ppy_str_split) X(ppy_str_split_ws)            \
  X(ppy_list_sort) X(ppy_list_reverse) X(ppy_list_clear) X(ppy_list_index_i64) X(ppy_list_index_f64)          \
  X(ppy_list_index_ptr) X(ppy_list_count_i64) X(ppy_list_count_f64) X(ppy_list_count_ptr) X(ppy_list_remove_i64) \
  X(ppy_list_remove_f64) X(ppy_list_remove_ptr) X(ppy_list_pop_at_i64) X(ppy_list_pop_at_f64) X(ppy_list_pop_at_ptr) \
  X(ppy_list_box) X(ppy_list_lt) X(ppy_list_le) X(ppy_list_gt) X(ppy_list_ge) X(ppy_list_sum_from_i64)        \
  X(ppy_list_sum_from_f64) X(ppy_list_root) X(ppy_list_min_desc)
/* clang-format on */

#ifndef PPY_RT_DECLARATIONS_ONLY

static int ppy_rt_gc_ready;

/** Starts the collector once (from the program's first thread). */
PPY_RT_API void ppy_rt_gc_init(void) {
  if (ppy_rt_gc_ready) return;
  GC_INIT();
  ppy_rt_gc_ready = 1;
}

/** A string of `n` bytes (filled by the caller) and `ncp` code points. */
static ppy_str* ppy_str_alloc(int64_t n, int64_t ncp) {
  if (PPY_RT_UNLIKELY(!ppy_rt_gc_ready)) ppy_rt_gc_init();
  if (n < 0 || n > ((int64_t)1 << 40)) ppy_rt_raise("MemoryError", "");
  ppy_str* s = (ppy_str*)GC_MALLOC_ATOMIC(sizeof(ppy_str) + (size_t)n + 1);
  if (!s) ppy_rt_raise("MemoryError", "");
  s->len = n;
  s->ncp = ncp;
  PPY_STR_BYTES(s)[n] = '\0';
  return s;
}

static int64_t ppy_utf8_count(const char* b, int64_t n) {
  int64_t c = 0;
  for (int64_t i = 0; i < n; ++i) c += ((unsigned char)b[i] & 0xC0) != 0x80;
  return c;
}

static ppy_str* ppy_str_make(const char* b, int64_t n) {
  ppy_str* s = ppy_str_alloc(n, ppy_utf8_count(b, n));
  if (n) memcpy(PPY_STR_BYTES(s), b, (size_t)n);
  return s;
}

/** The byte offset of code point `i` (0 <= i <= ncp). */
static int64_t ppy_str_offset(const ppy_str* s, int64_t i) {
  if (s->ncp == s->len) return i;
  const unsigned char* b = (const unsigned char*)PPY_STR_BYTES(s);
  int64_t at = 0;
  for (int64_t k = 0; k < i; ++k) {
    ++at;
    while (at < s->len && (b[at] & 0xC0) == 0x80) ++at;
  }
  return at;
}

/** The code point index of byte offset `at` (the start of a code point). */
static int64_t ppy_str_cp_at(const ppy_str* s, int64_t at) {
  return s->ncp == s->len ? at : ppy_utf8_count(PPY_STR_BYTES(s), at);
}

PPY_RT_API ppy_str* ppy_str_literal(const char* bytes, int64_t n) { return ppy_str_make(bytes, n); }

PPY_RT_API void ppy_print_string(const ppy_str* s) { ppy_rt_write(PPY_STR_BYTES(s), (size_t)s->len); }

PPY_RT_API ppy_str* ppy_str_concat(const ppy_str* a, const ppy_str* b) {
  ppy_str* s = ppy_str_alloc(a->len + b->len, a->ncp + b->ncp);
  memcpy(PPY_STR_BYTES(s), PPY_STR_BYTES(a), (size_t)a->len);
  memcpy(PPY_STR_BYTES(s) + a->len, PPY_STR_BYTES(b), (size_t)b->len);
  return s;
}

/** `s * n`: empty for n <= 0; MemoryError when the result cannot be held. */
PPY_RT_API ppy_str* ppy_str_repeat(const ppy_str* s, int64_t n) {
  if (n <= 0 || s->len == 0) return ppy_str_alloc(0, 0);
  int64_t total;
  if (__builtin_mul_overflow(s->len, n, &total)) ppy_rt_raise("MemoryError", "");
  ppy_str* r = ppy_str_alloc(total, s->ncp * n);
  for (int64_t k = 0; k < n; ++k) memcpy(PPY_STR_BYTES(r) + k * s->len, PPY_STR_BYTES(s), (size_t)s->len);
  return r;
}

PPY_RT_API int64_t ppy_str_len(const ppy_str* s) { return s->ncp; }

/** `s[i]`: negative counts from the end; IndexError outside. */
PPY_RT_API ppy_str* ppy_str_index(const ppy_str* s, int64_t i) {
  if (i < 0) i += s->ncp;
  if (PPY_RT_UNLIKELY(i < 0 || i >= s->ncp)) ppy_rt_raise("IndexError", "string index out of range");
  int64_t at = ppy_str_offset(s, i), end = at + 1;
  while (end < s->len && ((unsigned char)PPY_STR_BYTES(s)[end] & 0xC0) == 0x80) ++end;
  ppy_str* r = ppy_str_alloc(end - at, 1);
  memcpy(PPY_STR_BYTES(r), PPY_STR_BYTES(s) + at, (size_t)(end - at));
  return r;
}

/** Python's slice bounds (PySlice_AdjustIndices) over `len` items. */
static int64_t ppy_slice_bound(int64_t v, int64_t len, int64_t step) {
  if (v < 0) {
    v += len;
    if (v < 0) v = step < 0 ? -1 : 0;
  } else if (v >= len) {
    v = step < 0 ? len - 1 : len;
  }
  return v;
}

/** `s[start:stop:step]`; bit 0 of `omitted`: no start, bit 1: no stop.
 * ValueError for a zero step. */
PPY_RT_API ppy_str* ppy_str_slice(const ppy_str* s, int64_t start, int64_t stop, int64_t step, int64_t omitted) {
  if (step == 0) ppy_rt_raise("ValueError", "slice step cannot be zero");
  int64_t n = s->ncp;
  start = (omitted & 1) ? (step < 0 ? n - 1 : 0) : ppy_slice_bound(start, n, step);
  stop = (omitted & 2) ? (step < 0 ? -1 : n) : ppy_slice_bound(stop, n, step);
  int64_t count = 0;
  if (step < 0) {
    if (stop < start) count = (start - stop - 1) / (-step) + 1;
  } else if (start < stop) {
    count = (stop - start - 1) / step + 1;
  }
  if (count <= 0) return ppy_str_alloc(0, 0);
  if (step == 1) {
    int64_t a = ppy_str_offset(s, start), b = ppy_str_offset(s, start + count);
    ppy_str* r = ppy_str_alloc(b - a, count);
    memcpy(PPY_STR_BYTES(r), PPY_STR_BYTES(s) + a, (size_t)(b - a));
    return r;
  }
  /* Any step: the offsets of every code point first (one pass), then the picks. */
  int64_t* offs = (int64_t*)malloc((size_t)(n + 1) * sizeof(int64_t));
  if (!offs) ppy_rt_raise("MemoryError", "");
  for (int64_t k = 0, at = 0; k <= n; ++k) {
    offs[k] = at;
    if (k < n) {
      ++at;
      while (at < s->len && ((unsigned char)PPY_STR_BYTES(s)[at] & 0xC0) == 0x80) ++at;
    }
  }
  int64_t bytes = 0;
  for (int64_t k = 0, i = start; k < count; ++k, i += step) bytes += offs[i + 1] - offs[i];
  ppy_str* r = ppy_str_alloc(bytes, count);
  char* o = PPY_STR_BYTES(r);
  for (int64_t k = 0, i = start; k < count; ++k, i += step) {
    memcpy(o, PPY_STR_BYTES(s) + offs[i], (size_t)(offs[i + 1] - offs[i]));
    o += offs[i + 1] - offs[i];
  }
  free(offs);
  return r;
}

/** -1, 0 or 1: UTF-8's byte order is Python's code point order. */
PPY_RT_API int64_t ppy_str_compare(const ppy_str* a, const ppy_str* b) {
  int64_t n = a->len < b->len ? a->len : b->len;
  int c = n ? memcmp(PPY_STR_BYTES(a), PPY_STR_BYTES(b), (size_t)n) : 0;
  if (c != 0) return c < 0 ? -1 : 1;
  return a->len < b->len ? -1 : a->len > b->len ? 1 : 0;
}

/** The byte offset of the first `sub` in `s` from byte `from`, or -1. */
static int64_t ppy_str_search(const ppy_str* s, const ppy_str* sub, int64_t from) {
  const char* h = PPY_STR_BYTES(s);
  const char* n = PPY_STR_BYTES(sub);
  if (sub->len == 0) return from <= s->len ? from : -1;
  for (int64_t i = from; i + sub->len <= s->len; ++i) {
    const char* c = (const char*)memchr(h + i, n[0], (size_t)(s->len - sub->len - i + 1));
    if (!c) return -1;
    i = c - h;
    if (memcmp(c, n, (size_t)sub->len) == 0) return i;
  }
  return -1;
}

PPY_RT_API int64_t ppy_str_contains(const ppy_str* hay, const ppy_str* needle) {
  return ppy_str_search(hay, needle, 0) >= 0;
}

PPY_RT_API ppy_str* ppy_str_from_i64(int64_t v) {
  char buf[24];
  int n = snprintf(buf, sizeof buf, "%lld", (long long)v);
  return ppy_str_make(buf, n);
}

/** Python's str() of a float (its repr). */
PPY_RT_API ppy_str* ppy_str_from_f64(double v) {
  char buf[40];
  int n = ppy_format_f64(v, buf);
  return ppy_str_make(buf, n);
}

PPY_RT_API ppy_str* ppy_str_from_bool(int64_t v) { return v ? ppy_str_make("True", 4) : ppy_str_make("False", 5); }

/** Python's repr of a string (for error messages): quotes, escapes. */
static const char* ppy_str_repr_text(const ppy_str* s) {
  const char* b = PPY_STR_BYTES(s);
  int has_single = memchr(b, '\'', (size_t)s->len) != NULL, has_double = memchr(b, '"', (size_t)s->len) != NULL;
  char q = has_single && !has_double ? '"' : '\'';
  char* out = (char*)GC_MALLOC_ATOMIC((size_t)s->len * 4 + 3);
  if (!out) ppy_rt_raise("MemoryError", "");
  char* o = out;
  *o++ = q;
  for (int64_t i = 0; i < s->len; ++i) {
    unsigned char c = (unsigned char)b[i];
    if (c == '\\' || c == (unsigned char)q) {
      *o++ = '\\';
      *o++ = (char)c;
    } else if (c == '\n') {
      *o++ = '\\';
      *o++ = 'n';
    } else if (c == '\t') {
      *o++ = '\\';
      *o++ = 't';
    } else if (c == '\r') {
      *o++ = '\\';
      *o++ = 'r';
    } else if (c < 0x20 || c == 0x7f) {
      o += sprintf(o, "\\x%02x", c);
    } else {
      *o++ = (char)c;
    }
  }
  *o++ = q;
  *o = '\0';
  return out;
}

static int ppy_is_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f); }

static PPY_RT_NORETURN void ppy_str_value_error(const char* what, const ppy_str* s) {
  const char* r = ppy_str_repr_text(s);
  size_t n = strlen(what) + strlen(r) + 1;
  char* msg = (char*)GC_MALLOC_ATOMIC(n);
  if (!msg) ppy_rt_raise("MemoryError", "");
  snprintf(msg, n, "%s%s", what, r);
  ppy_rt_raise("ValueError", msg);
}

/** `int(s)`: Python's grammar for base 10 (whitespace around, a sign, digits
 * with single underscores between them); ValueError otherwise; OverflowError
 * past i64 (a documented deviation: Python's int grows). */
PPY_RT_API int64_t ppy_str_to_i64(const ppy_str* s) {
  const unsigned char* b = (const unsigned char*)PPY_STR_BYTES(s);
  int64_t i = 0, n = s->len;
  while (i < n && ppy_is_space(b[i])) ++i;
  while (n > i && ppy_is_space(b[n - 1])) --n;
  int neg = 0;
  if (i < n && (b[i] == '+' || b[i] == '-')) neg = b[i++] == '-';
  if (i >= n || !(b[i] >= '0' && b[i] <= '9')) ppy_str_value_error("invalid literal for int() with base 10: ", s);
  uint64_t v = 0;
  int over = 0;
  for (; i < n; ++i) {
    if (b[i] == '_') {
      if (i + 1 >= n || !(b[i + 1] >= '0' && b[i + 1] <= '9'))
        ppy_str_value_error("invalid literal for int() with base 10: ", s);
      continue;
    }
    if (!(b[i] >= '0' && b[i] <= '9')) ppy_str_value_error("invalid literal for int() with base 10: ", s);
    if (v > (UINT64_MAX - 9) / 10) over = 1;
    v = v * 10 + (uint64_t)(b[i] - '0');
  }
  if (over || v > (uint64_t)INT64_MAX + (uint64_t)neg) ppy_rt_overflow();
  return neg ? (int64_t)(0 - v) : (int64_t)v;
}

/** `float(s)`: Python's grammar (whitespace, a sign, digits with underscores
 * between them, a point, an exponent, `inf`, `infinity`, `nan` in any case);
 * ValueError otherwise. */
PPY_RT_API double ppy_str_to_f64(const ppy_str* s) {
  const unsigned char* b = (const unsigned char*)PPY_STR_BYTES(s);
  int64_t i = 0, n = s->len;
  while (i < n && ppy_is_space(b[i])) ++i;
  while (n > i && ppy_is_space(b[n - 1])) --n;
  char* clean = (char*)GC_MALLOC_ATOMIC((size_t)(n - i) + 2);
  if (!clean) ppy_rt_raise("MemoryError", "");
  char* o = clean;
  int64_t k = i;
  if (k < n && (b[k] == '+' || b[k] == '-')) *o++ = (char)b[k++];
  /* inf / infinity / nan */
  int64_t rest = n - k;
  const char* words[] = {"inf", "infinity", "nan"};
  for (int w = 0; w < 3; ++w) {
    int64_t wl = (int64_t)strlen(words[w]);
    if (rest != wl) continue;
    int same = 1;
    for (int64_t c = 0; c < wl; ++c)
      if ((b[k + c] | 0x20) != (unsigned char)words[w][c]) same = 0;
    if (same) {
      double v = w == 2 ? NAN : INFINITY;
      return clean[0] == '-' ? -v : v;
    }
  }
  int digits = 0, prev_digit = 0;
  int64_t start = k;
  /* mantissa: digits [ . digits ] */
  for (; k < n; ++k) {
    unsigned char c = b[k];
    if (c >= '0' && c <= '9') {
      *o++ = (char)c;
      digits = 1;
      prev_digit = 1;
    } else if (c == '_' && prev_digit && k + 1 < n && b[k + 1] >= '0' && b[k + 1] <= '9') {
      prev_digit = 0;
    } else {
      break;
    }
  }
  if (k < n && b[k] == '.') {
    *o++ = '.';
    ++k;
    prev_digit = 0;
    for (; k < n; ++k) {
      unsigned char c = b[k];
      if (c >= '0' && c <= '9') {
        *o++ = (char)c;
        digits = 1;
        prev_digit = 1;
      } else if (c == '_' && prev_digit && k + 1 < n && b[k + 1] >= '0' && b[k + 1] <= '9') {
        prev_digit = 0;
      } else {
        break;
      }
    }
  }
  (void)start;
  if (!digits) ppy_str_value_error("could not convert string to float: ", s);
  if (k < n && (b[k] == 'e' || b[k] == 'E')) {
    *o++ = 'e';
    ++k;
    if (k < n && (b[k] == '+' || b[k] == '-')) *o++ = (char)b[k++];
    int exp_digits = 0;
    prev_digit = 0;
    for (; k < n; ++k) {
      unsigned char c = b[k];
      if (c >= '0' && c <= '9') {
        *o++ = (char)c;
        exp_digits = 1;
        prev_digit = 1;
      } else if (c == '_' && prev_digit && k + 1 < n && b[k + 1] >= '0' && b[k + 1] <= '9') {
        prev_digit = 0;
      } else {
        break;
      }
    }
    if (!exp_digits) ppy_str_value_error("could not convert string to float: ", s);
  }
  if (k != n) ppy_str_value_error("could not convert string to float: ", s);
  *o = '\0';
  return strtod(clean, NULL);
}

/** ASCII letters changed; anything else kept (a documented deviation). */
static ppy_str* ppy_str_case(const ppy_str* s, int upper) {
  ppy_str* r = ppy_str_alloc(s->len, s->ncp);
  const char* b = PPY_STR_BYTES(s);
  char* o = PPY_STR_BYTES(r);
  for (int64_t i = 0; i < s->len; ++i) {
    char c = b[i];
    if (upper && c >= 'a' && c <= 'z') c = (char)(c - 32);
    if (!upper && c >= 'A' && c <= 'Z') c = (char)(c + 32);
    o[i] = c;
  }
  return r;
}

PPY_RT_API ppy_str* ppy_str_upper(const ppy_str* s) { return ppy_str_case(s, 1); }
PPY_RT_API ppy_str* ppy_str_lower(const ppy_str* s) { return ppy_str_case(s, 0); }

static ppy_str* ppy_str_strip_sides(const ppy_str* s, int left, int right) {
  const unsigned char* b = (const unsigned char*)PPY_STR_BYTES(s);
  int64_t i = 0, n = s->len;
  if (left)
    while (i < n && ppy_is_space(b[i])) ++i;
  if (right)
    while (n > i && ppy_is_space(b[n - 1])) --n;
  return ppy_str_make((const char*)b + i, n - i);
}

PPY_RT_API ppy_str* ppy_str_strip(const ppy_str* s) { return ppy_str_strip_sides(s, 1, 1); }
PPY_RT_API ppy_str* ppy_str_lstrip(const ppy_str* s) { return ppy_str_strip_sides(s, 1, 0); }
PPY_RT_API ppy_str* ppy_str_rstrip(const ppy_str* s) { return ppy_str_strip_sides(s, 0, 1); }

PPY_RT_API int64_t ppy_str_startswith(const ppy_str* s, const ppy_str* prefix) {
  return prefix->len <= s->len && memcmp(PPY_STR_BYTES(s), PPY_STR_BYTES(prefix), (size_t)prefix->len) == 0;
}

PPY_RT_API int64_t ppy_str_endswith(const ppy_str* s, const ppy_str* suffix) {
  return suffix->len <= s->len &&
         memcmp(PPY_STR_BYTES(s) + s->len - suffix->len, PPY_STR_BYTES(suffix), (size_t)suffix->len) == 0;
}

/** The code point index of the first `sub`, or -1. */
PPY_RT_API int64_t ppy_str_find(const ppy_str* s, const ppy_str* sub) {
  int64_t at = ppy_str_search(s, sub, 0);
  return at < 0 ? -1 : ppy_str_cp_at(s, at);
}

/** Non-overlapping occurrences; an empty `sub` is found len(s) + 1 times. */
PPY_RT_API int64_t ppy_str_count(const ppy_str* s, const ppy_str* sub) {
  if (sub->len == 0) return s->ncp + 1;
  int64_t c = 0;
  for (int64_t at = ppy_str_search(s, sub, 0); at >= 0; at = ppy_str_search(s, sub, at + sub->len)) ++c;
  return c;
}

/** Every `old` replaced by `with`; an empty `old` puts `with` around every code point. */
PPY_RT_API ppy_str* ppy_str_replace(const ppy_str* s, const ppy_str* old, const ppy_str* with) {
  int64_t hits = ppy_str_count(s, old);
  if (hits == 0) return ppy_str_make(PPY_STR_BYTES(s), s->len);
  int64_t len = s->len + hits * (with->len - old->len);
  ppy_str* r = ppy_str_alloc(len, s->ncp + hits * (with->ncp - old->ncp));
  char* o = PPY_STR_BYTES(r);
  const char* b = PPY_STR_BYTES(s);
  if (old->len == 0) {
    for (int64_t i = 0; i <= s->len;) {
      memcpy(o, PPY_STR_BYTES(with), (size_t)with->len);
      o += with->len;
      if (i == s->len) break;
      int64_t e = i + 1;
      while (e < s->len && ((unsigned char)b[e] & 0xC0) == 0x80) ++e;
      memcpy(o, b + i, (size_t)(e - i));
      o += e - i;
      i = e;
    }
    return r;
  }
  int64_t from = 0;
  for (int64_t at = ppy_str_search(s, old, 0); at >= 0; at = ppy_str_search(s, old, from)) {
    memcpy(o, b + from, (size_t)(at - from));
    o += at - from;
    memcpy(o, PPY_STR_BYTES(with), (size_t)with->len);
    o += with->len;
    from = at + old->len;
  }
  memcpy(o, b + from, (size_t)(s->len - from));
  return r;
}

/** Python's repr of a string: quoted, with escapes (printing a tuple's str). */
PPY_RT_API ppy_str* ppy_str_repr(const ppy_str* s) {
  const char* r = ppy_str_repr_text(s);
  return ppy_str_make(r, (int64_t)strlen(r));
}

/* ------------------------------------------------------------------------ */
/* Format specs (f-string fields): [[fill]align][sign][#][0][width][,|_][.precision][type] */

typedef struct ppy_spec {
  char fill[5]; /* one UTF-8 code point */
  int fill_len;
  char align; /* '<', '>', '^', '=', or 0 (the type's default) */
  char sign;  /* '+', '-', ' ' */
  int alt, zero;
  int64_t width, precision; /* -1: none */
  char grouping;            /* ',', '_' or 0 */
  char type;                /* 0 for none */
} ppy_spec;

/** Reads a spec the frontend has checked (docs/runtime.md, "Strings"). */
static ppy_spec ppy_spec_parse(const ppy_str* s) {
  ppy_spec sp;
  memset(&sp, 0, sizeof sp);
  sp.fill[0] = ' ';
  sp.fill_len = 1;
  sp.sign = '-';
  sp.width = sp.precision = -1;
  const char* b = PPY_STR_BYTES(s);
  int64_t n = s->len, i = 0;
  /* fill and align: a code point followed by an align character, or an align character */
  if (n > 0) {
    int64_t cl = 1;
    while (cl < n && ((unsigned char)b[cl] & 0xC0) == 0x80) ++cl;
    if (cl < n && (b[cl] == '<' || b[cl] == '>' || b[cl] == '^' || b[cl] == '=') && cl <= 4) {
      memcpy(sp.fill, b, (size_t)cl);
      sp.fill_len = (int)cl;
      sp.align = b[cl];
      i = cl + 1;
    } else if (b[0] == '<' || b[0] == '>' || b[0] == '^' || b[0] == '=') {
      sp.align = b[0];
      i = 1;
    }
  }
  if (i < n && (b[i] == '+' || b[i] == '-' || b[i] == ' ')) sp.sign = b[i++];
  if (i < n && b[i] == '#') {
    sp.alt = 1;
    ++i;
  }
  if (i < n && b[i] == '0') {
    sp.zero = 1;
    ++i;
  }
  if (i < n && b[i] >= '0' && b[i] <= '9') {
    sp.width = 0;
    while (i < n && b[i] >= '0' && b[i] <= '9') sp.width = sp.width * 10 + (b[i++] - '0');
  }
  if (i < n && (b[i] == ',' || b[i] == '_')) sp.grouping = b[i++];
  if (i < n && b[i] == '.') {
    ++i;
    sp.precision = 0;
    while (i < n && b[i] >= '0' && b[i] <= '9') sp.precision = sp.precision * 10 + (b[i++] - '0');
  }
  if (i < n) sp.type = b[i];
  if (sp.zero && !sp.align) {
    sp.fill[0] = '0';
    sp.fill_len = 1;
    sp.align = '=';
  }
  return sp;
}

/** `digits` (ASCII) with a separator every `every` digits from the right. */
static int64_t ppy_group(const char* digits, int64_t nd, char sep, int every, char* out) {
  int64_t o = 0;
  for (int64_t k = 0; k < nd; ++k) {
    if (sep && k > 0 && (nd - k) % every == 0) out[o++] = sep;
    out[o++] = digits[k];
  }
  return o;
}

/** Pads `sign`+`body` (ASCII, `ncp` code points in body) to the spec's width. */
static ppy_str* ppy_pad(const ppy_spec* sp, const char* sign, const char* body, int64_t nbody, int64_t ncp,
                        char default_align) {
  int64_t ns = (int64_t)strlen(sign);
  int64_t total = ns + ncp;
  int64_t pad = sp->width > total ? sp->width - total : 0;
  char align = sp->align ? sp->align : default_align;
  int64_t left = 0, right = 0, mid = 0;
  if (align == '<')
    right = pad;
  else if (align == '>')
    left = pad;
  else if (align == '^') {
    left = pad / 2;
    right = pad - left;
  } else
    mid = pad; /* '=': after the sign */
  int64_t fl = sp->fill_len;
  ppy_str* r = ppy_str_alloc(ns + nbody + pad * fl, total + pad);
  char* o = PPY_STR_BYTES(r);
  for (int64_t k = 0; k < left; ++k, o += fl) memcpy(o, sp->fill, (size_t)fl);
  memcpy(o, sign, (size_t)ns);
  o += ns;
  for (int64_t k = 0; k < mid; ++k, o += fl) memcpy(o, sp->fill, (size_t)fl);
  memcpy(o, body, (size_t)nbody);
  o += nbody;
  for (int64_t k = 0; k < right; ++k, o += fl) memcpy(o, sp->fill, (size_t)fl);
  return r;
}

/** `format(v, spec)` of an int: types d (or none), b, o, x, X. */
PPY_RT_API ppy_str* ppy_str_format_i64(int64_t v, const ppy_str* spec) {
  ppy_spec sp = ppy_spec_parse(spec);
  if (sp.type == 'e' || sp.type == 'E' || sp.type == 'f' || sp.type == 'F' || sp.type == 'g' || sp.type == 'G' ||
      sp.type == '%')
    return ppy_str_format_f64((double)v, spec);
  uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  int base = sp.type == 'b' ? 2 : sp.type == 'o' ? 8 : (sp.type == 'x' || sp.type == 'X') ? 16 : 10;
  const char* dig = sp.type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
  char digits[72];
  int nd = 0;
  do {
    digits[nd++] = dig[mag % (uint64_t)base];
    mag /= (uint64_t)base;
  } while (mag);
  for (int k = 0; k < nd / 2; ++k) {
    char t = digits[k];
    digits[k] = digits[nd - 1 - k];
    digits[nd - 1 - k] = t;
  }
  char body[160];
  int64_t nb = ppy_group(digits, nd, sp.grouping, base == 10 ? 3 : 4, body);
  char sign[8] = "";
  int ns = 0;
  if (v < 0)
    sign[ns++] = '-';
  else if (sp.sign == '+')
    sign[ns++] = '+';
  else if (sp.sign == ' ')
    sign[ns++] = ' ';
  if (sp.alt && base != 10) {
    sign[ns++] = '0';
    sign[ns++] = sp.type == 'b' ? 'b' : sp.type == 'o' ? 'o' : sp.type;
  }
  sign[ns] = '\0';
  return ppy_pad(&sp, sign, body, nb, nb, '>');
}

/** `format(v, spec)` of a float: types f, F, e, E, g, G, %, or none (repr;
 * with a precision, `g` that keeps a point). */
PPY_RT_API ppy_str* ppy_str_format_f64(double v, const ppy_str* spec) {
  ppy_spec sp = ppy_spec_parse(spec);
  int neg = signbit(v) && !isnan(v);
  double a = fabs(v);
  char t = sp.type;
  int64_t prec = sp.precision;
  int pct = t == '%';
  if (pct) {
    a *= 100;
    t = 'f';
  }
  int none = t == 0;
  char* num;
  if (none && prec < 0) {
    num = (char*)GC_MALLOC_ATOMIC(48);
    if (!num) ppy_rt_raise("MemoryError", "");
    ppy_format_f64(a, num);
  } else {
    if (none) t = 'g';
    if (prec < 0) prec = 6;
    if (prec > 1000) ppy_rt_raise("ValueError", "precision too big");
    char fmt[24];
    snprintf(fmt, sizeof fmt, "%%%s.%d%c", sp.alt ? "#" : "", (int)prec, t);
    int len = snprintf(NULL, 0, fmt, a);
    num = (char*)GC_MALLOC_ATOMIC((size_t)len + 4);
    if (!num) ppy_rt_raise("MemoryError", "");
    snprintf(num, (size_t)len + 1, fmt, a);
    if (none && isfinite(a) && !strpbrk(num, ".e")) strcat(num, ".0");
  }
  if (pct) strcat(num, "%");
  int64_t nn = (int64_t)strlen(num), ni = 0;
  while (ni < nn && num[ni] >= '0' && num[ni] <= '9') ++ni;
  char* body = (char*)GC_MALLOC_ATOMIC((size_t)(nn + ni / 3 + 2));
  if (!body) ppy_rt_raise("MemoryError", "");
  int64_t nb = ppy_group(num, ni, sp.grouping, 3, body);
  memcpy(body + nb, num + ni, (size_t)(nn - ni));
  nb += nn - ni;
  char sign[2] = {0, 0};
  if (neg)
    sign[0] = '-';
  else if (sp.sign == '+' || sp.sign == ' ')
    sign[0] = sp.sign;
  return ppy_pad(&sp, sign, body, nb, nb, '>');
}

/** `format(s, spec)` of a string: fill, alignment (left by default), width,
 * a precision that truncates. */
PPY_RT_API ppy_str* ppy_str_format_str(const ppy_str* s, const ppy_str* spec) {
  ppy_spec sp = ppy_spec_parse(spec);
  int64_t ncp = s->ncp, nbytes = s->len;
  if (sp.precision >= 0 && sp.precision < ncp) {
    nbytes = ppy_str_offset(s, sp.precision);
    ncp = sp.precision;
  }
  return ppy_pad(&sp, "", PPY_STR_BYTES(s), nbytes, ncp, '<');
}

/** `ord(s)`: the code point of a one-character string; TypeError otherwise. */
PPY_RT_API int64_t ppy_str_ord(const ppy_str* s) {
  if (s->ncp != 1) {
    char msg[96];
    snprintf(msg, sizeof msg, "ord() expected a character, but string of length %lld found", (long long)s->ncp);
    char* kept = (char*)GC_MALLOC_ATOMIC(strlen(msg) + 1);
    if (!kept) ppy_rt_raise("MemoryError", "");
    strcpy(kept, msg);
    ppy_rt_raise("TypeError", kept);
  }
  const unsigned char* b = (const unsigned char*)PPY_STR_BYTES(s);
  if (b[0] < 0x80) return b[0];
  int extra = b[0] >= 0xF0 ? 3 : b[0] >= 0xE0 ? 2 : 1;
  int64_t cp = b[0] & (0x3F >> extra);
  for (int k = 1; k <= extra; ++k) cp = (cp << 6) | (b[k] & 0x3F);
  return cp;
}

/** `chr(i)`: ValueError outside 0..0x10FFFF, and for a surrogate (a documented
 * deviation: Python makes a string it cannot print). */
PPY_RT_API ppy_str* ppy_str_chr(int64_t cp) {
  if (cp < 0 || cp > 0x10FFFF) ppy_rt_raise("ValueError", "chr() arg not in range(0x110000)");
  if (cp >= 0xD800 && cp <= 0xDFFF) ppy_rt_raise("ValueError", "chr() of a surrogate is outside the ppy subset");
  char b[4];
  int n;
  if (cp < 0x80) {
    b[0] = (char)cp;
    n = 1;
  } else if (cp < 0x800) {
    b[0] = (char)(0xC0 | (cp >> 6));
    b[1] = (char)(0x80 | (cp & 0x3F));
    n = 2;
  } else if (cp < 0x10000) {
    b[0] = (char)(0xE0 | (cp >> 12));
    b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    b[2] = (char)(0x80 | (cp & 0x3F));
    n = 3;
  } else {
    b[0] = (char)(0xF0 | (cp >> 18));
    b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    b[3] = (char)(0x80 | (cp & 0x3F));
    n = 4;
  }
  ppy_str* r = ppy_str_alloc(n, 1);
  memcpy(PPY_STR_BYTES(r), b, (size_t)n);
  return r;
}

/* ------------------------------------------------------------------------ */
/* Exceptions (docs/runtime.md, "Exceptions")                                */

/** `raise NAME(message)`: as a guard raises (ends the program, or returns
 * to the innermost ppy_rt_try). The strings stay reachable from the runtime's
 * state, which the collector scans. */
PPY_RT_API PPY_RT_NORETURN void ppy_exc_raise(const ppy_str* name, const ppy_str* message) {
  ppy_rt_raise(PPY_STR_BYTES(name), PPY_STR_BYTES(message));
}

static ppy_str* ppy_str_of_c(const char* s) { return ppy_str_literal(s ? s : "", s ? (int64_t)strlen(s) : 0); }

/** The class name of the exception the innermost ppy_rt_try caught. */
PPY_RT_API ppy_str* ppy_exc_name(void) { return ppy_str_of_c(ppy_rt_state.error_name); }
/** Its message (`str(e)`). */
PPY_RT_API ppy_str* ppy_exc_message(void) { return ppy_str_of_c(ppy_rt_state.error_message); }

/** Records a caught exception for an embedder that catches raises itself (the
 * interpreter): ppy_exc_name and ppy_exc_message answer it next. */
PPY_RT_API void ppy_exc_set(const char* name, const char* message) {
  ppy_str* n = ppy_str_of_c(name);
  ppy_str* m = ppy_str_of_c(message);
  ppy_rt_state.error_name = PPY_STR_BYTES(n);
  ppy_rt_state.error_message = PPY_STR_BYTES(m);
}

/** Whether an exception of class `name` is caught by `except cls`: the
 * builtin classes' bases, as Python has them. */
PPY_RT_API int64_t ppy_exc_matches(const ppy_str* name, const ppy_str* cls) {
  static const char* const kBases[][2] = {
      {"ZeroDivisionError", "ArithmeticError"},
      {"OverflowError", "ArithmeticError"},
      {"FloatingPointError", "ArithmeticError"},
      {"IndexError", "LookupError"},
      {"KeyError", "LookupError"},
      {"RecursionError", "RuntimeError"},
      {"NotImplementedError", "RuntimeError"},
      {"UnicodeError", "ValueError"},
  };
  const char* c = PPY_STR_BYTES(cls);
  if (strcmp(c, "BaseException") == 0) return 1;
  const char* n = PPY_STR_BYTES(name);
  while (n) {
    if (strcmp(n, c) == 0) return 1;
    const char* base = strcmp(n, "Exception") == 0 ? NULL : "Exception";
    for (size_t i = 0; i < sizeof kBases / sizeof kBases[0]; ++i)
      if (strcmp(n, kBases[i][0]) == 0) base = kBases[i][1];
    n = base;
  }
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Lists on the collector (docs/runtime.md, "Lists")                         */

/** Elements past this count raise MemoryError, as the interpreter. */
#define PPY_LIST_MAX ((int64_t)1 << 31)

/** A list of `n` zero elements (n < 0 counts as 0). `scanned`: its elements
 * may be handles (str, list), so the collector scans them; numbers are atomic. */
static ppy_list* ppy_list_make(int64_t n, int scanned) {
  if (PPY_RT_UNLIKELY(!ppy_rt_gc_ready)) ppy_rt_gc_init();
  if (n < 0) n = 0;
  if (n > PPY_LIST_MAX) ppy_rt_raise("MemoryError", "");
  ppy_list* l = (ppy_list*)GC_MALLOC(sizeof(ppy_list));
  if (!l) ppy_rt_raise("MemoryError", "");
  int64_t cap = n < 4 ? 4 : n;
  size_t bytes = (size_t)cap * 8;
  l->data = scanned ? GC_MALLOC(bytes) : GC_MALLOC_ATOMIC(bytes);
  if (!l->data) ppy_rt_raise("MemoryError", "");
  if (!scanned) memset(l->data, 0, bytes);
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
  if (l->len == l->cap) {
    if (l->len >= PPY_LIST_MAX) ppy_rt_raise("MemoryError", "");
    int64_t cap = l->cap * 2;
    void* grown = GC_REALLOC(l->data, (size_t)cap * 8);
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
  if (PPY_RT_UNLIKELY(l->len == 0)) ppy_rt_raise("IndexError", "pop from empty list");
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

/* A list's element type travels as a descriptor string: `i` int, `f` float,
 * `b` bool, `s` str, `[` followed by the descriptor of a list's elements. */

/** Appends Python's repr of element `v` (descriptor `d`) to the growing text. */
typedef struct ppy_text {
  char* b;
  size_t n, cap;
} ppy_text;

static void ppy_text_add(ppy_text* t, const char* s, size_t n) {
  if (t->n + n > t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 64;
    while (cap < t->n + n) cap *= 2;
    char* grown = (char*)GC_REALLOC(t->b, cap);
    if (!grown) ppy_rt_raise("MemoryError", "");
    t->b = grown;
    t->cap = cap;
  }
  memcpy(t->b + t->n, s, n);
  t->n += n;
}

/* `n` describes the value None itself (a tuple element `(1, None)`: one leaf, 0).
 * A tuple or an optional in a list is a box (ppy_list_box): its leaves (the
 * scalars, strs and lists it holds, nested tuples flattened, an optional as
 * its present flag then its value) in 8-byte slots, a bool as 0 or 1. The
 * descriptor of a tuple is `(` its elements' `)`, of an optional `?` and its
 * value's. A box is never changed once made: a tuple is immutable. */

/** The descriptor after the one at `d`. */
static const char* ppy_desc_next(const char* d) {
  if (d[0] == '[' || d[0] == '?') return ppy_desc_next(d + 1);
  if (d[0] != '(') return d + 1;
  for (++d; *d && *d != ')'; d = ppy_desc_next(d)) {
  }
  return *d ? d + 1 : d;
}

/** How many leaves a value of descriptor `d` takes in a box. */
static int64_t ppy_desc_width(const char* d) {
  if (d[0] == '?') return 1 + ppy_desc_width(d + 1);
  if (d[0] != '(') return 1;
  int64_t w = 0;
  for (++d; *d && *d != ')'; d = ppy_desc_next(d)) w += ppy_desc_width(d);
  return w;
}

/** A list slot's value as its leaves: a tuple's or an optional's are in its box. */
static const int64_t* ppy_slot_val(const int64_t* slot, const char* d) {
  return (d[0] == '(' || d[0] == '?') ? (const int64_t*)(intptr_t)*slot : slot;
}

static void ppy_list_repr_into(ppy_text* t, const ppy_list* l, const char* d);

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
    default:
      ppy_list_repr_into(t, (const ppy_list*)(intptr_t)v[0], d + 1);
      break;
  }
}

static void ppy_list_repr_into(ppy_text* t, const ppy_list* l, const char* d) {
  ppy_text_add(t, "[", 1);
  for (int64_t k = 0; k < l->len; ++k) {
    if (k) ppy_text_add(t, ", ", 2);
    ppy_val_repr(t, ppy_slot_val((const int64_t*)l->data + k, d), d);
  }
  ppy_text_add(t, "]", 1);
}

/** Python's repr of a list whose elements `desc` describes (above). */
PPY_RT_API ppy_str* ppy_list_repr(const ppy_list* l, const ppy_str* desc) {
  ppy_text t = {NULL, 0, 0};
  ppy_list_repr_into(&t, l, PPY_STR_BYTES(desc));
  return ppy_str_make(t.b, (int64_t)t.n);
}

static int ppy_list_eq_at(const ppy_list* a, const ppy_list* b, const char* d);

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

static int ppy_list_eq_at(const ppy_list* a, const ppy_list* b, const char* d) {
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
    case '(':
      for (const char* e = d + 1; *e && *e != ')'; e = ppy_desc_next(e)) {
        if (!ppy_val_eq(a, b, e)) return ppy_val_order(a, b, e, op);
        a += ppy_desc_width(e);
        b += ppy_desc_width(e);
      }
      return ppy_sign_op(0, op);
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

/** A module variable holding a str or a list (a global `slot` of one handle) is a
 * root of the collector: a global a JIT made lies outside the data the
 * collector scans by itself (docs/runtime.md, "Module variables used by functions"). */
PPY_RT_API void ppy_list_root(void* slot) {
  if (PPY_RT_UNLIKELY(!ppy_rt_gc_ready)) ppy_rt_gc_init();
  GC_add_roots(slot, (char*)slot + sizeof(void*));
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
  return ppy_list_eq_at(a, b, PPY_STR_BYTES(desc));
}

/** Opens a gap of one slot at `i` (Python's insert: negative counts from the
 * end, then clamped to the list) and answers it. */
static void* ppy_list_gap(ppy_list* l, int64_t i) {
  int64_t n = l->len;
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

/** `v in l` for a list of handles: a str or a list (`desc` describes `l`'s elements). */
PPY_RT_API int64_t ppy_list_contains_ptr(const ppy_list* l, const void* v, const ppy_str* desc) {
  const char* d = PPY_STR_BYTES(desc);
  int64_t bits = (int64_t)(intptr_t)v;
  const int64_t* y = ppy_slot_val(&bits, d);
  for (int64_t k = 0; k < l->len; ++k)
    if (ppy_val_eq(ppy_slot_val((const int64_t*)l->data + k, d), y, d)) return 1;
  return 0;
}

/** Python's `a < b` of two list slots whose descriptor is `d`. */
static int ppy_slot_less(int64_t a, int64_t b, const char* d) {
  return ppy_val_order(ppy_slot_val(&a, d), ppy_slot_val(&b, d), d, 0);
}

/** `sorted(l)`: a new list, stable (a merge sort, as Python's sort is stable). */
PPY_RT_API ppy_list* ppy_list_sorted(const ppy_list* l, const ppy_str* desc) {
  const char* d = PPY_STR_BYTES(desc);
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

/** `sep.join(parts)`. */
PPY_RT_API ppy_str* ppy_str_join(const ppy_str* sep, const ppy_list* parts) {
  ppy_text t = {NULL, 0, 0};
  for (int64_t k = 0; k < parts->len; ++k) {
    const ppy_str* p = ((const ppy_str* const*)parts->data)[k];
    if (k && sep->len) ppy_text_add(&t, PPY_STR_BYTES(sep), (size_t)sep->len);
    if (p->len) ppy_text_add(&t, PPY_STR_BYTES(p), (size_t)p->len);
  }
  return ppy_str_make(t.b ? t.b : "", (int64_t)t.n);
}

/** `s.split(sep)`: ValueError for an empty separator. */
PPY_RT_API ppy_list* ppy_str_split(const ppy_str* s, const ppy_str* sep) {
  if (sep->len == 0) ppy_rt_raise("ValueError", "empty separator");
  ppy_list* r = ppy_list_make(0, 1);
  const char* b = PPY_STR_BYTES(s);
  const char* e = b + s->len;
  const char* from = b;
  for (const char* at = b; at + sep->len <= e;) {
    if (memcmp(at, PPY_STR_BYTES(sep), (size_t)sep->len) == 0) {
      ppy_list_append_ptr(r, ppy_str_make(from, at - from));
      at += sep->len;
      from = at;
    } else {
      ++at;
    }
  }
  ppy_list_append_ptr(r, ppy_str_make(from, e - from));
  return r;
}

/** `s.split()`: runs of ASCII whitespace separate; none at the ends. */
PPY_RT_API ppy_list* ppy_str_split_ws(const ppy_str* s) {
  ppy_list* r = ppy_list_make(0, 1);
  const char* b = PPY_STR_BYTES(s);
  int64_t n = s->len, i = 0;
  for (;;) {
    while (i < n && (b[i] == ' ' || (b[i] >= '\t' && b[i] <= '\r') || (b[i] >= 0x1c && b[i] <= 0x1f))) ++i;
    if (i >= n) break;
    int64_t j = i;
    while (j < n && !(b[j] == ' ' || (b[j] >= '\t' && b[j] <= '\r') || (b[j] >= 0x1c && b[j] <= 0x1f))) ++j;
    ppy_list_append_ptr(r, ppy_str_make(b + i, j - i));
    i = j;
  }
  return r;
}

/** `l.sort()`: in place, stable (`desc`: ints, floats, bools or strs). */
PPY_RT_API void ppy_list_sort(ppy_list* l, const ppy_str* desc) {
  ppy_list* r = ppy_list_sorted(l, desc);
  if (l->len) memcpy(l->data, r->data, (size_t)l->len * 8);
}

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
  ppy_list one = {1, 1, &v, 0};
  ppy_list_repr_into(&t, &one, d); /* "[v]" */
  ppy_text w = {NULL, 0, 0};
  ppy_text_add(&w, t.b + 1, t.n - 2);
  ppy_text_add(&w, " is not in list", 16); /* and the NUL */
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
PPY_RT_API int64_t ppy_list_count_ptr(const ppy_list* l, const void* v, const ppy_str* desc) {
  int64_t c = 0;
  for (int64_t k = 0; k < l->len; ++k) c += ppy_slot_eq(l, k, (int64_t)(intptr_t)v, PPY_STR_BYTES(desc));
  return c;
}

/** Takes slot `k` out, the later ones moving down; answers its bits. */
static int64_t ppy_list_cut(ppy_list* l, int64_t k) {
  int64_t* a = (int64_t*)l->data;
  int64_t v = a[k];
  memmove(a + k, a + k + 1, (size_t)(l->len - k - 1) * 8);
  a[--l->len] = 0;
  return v;
}

static void ppy_list_remove_at(ppy_list* l, int64_t v, const char* d) {
  int64_t k = ppy_list_find(l, v, d);
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

/** `l.pop(i)`: negative from the end; IndexError as Python words it. */
static int64_t ppy_list_pop_index(ppy_list* l, int64_t i) {
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

#endif /* PPY_RT_DECLARATIONS_ONLY */

#ifdef __cplusplus
}
#endif

#endif /* PPY_RT_STRINGS && !PPY_STR_H */
