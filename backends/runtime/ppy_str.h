/* ppy_str.h: strings of the native runtime (docs/runtime.md, "Strings").
 *
 * Compiled only with PPY_RT_STRINGS defined: a program that uses no string
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
#ifndef PPY_STR_H
#define PPY_STR_H

#include "ppy_runtime.h"
/* What PPY_STR_SYMBOLS names besides the strings' own. */
#include "ppy_exc.h"
#include "ppy_list.h"
#include "ppy_print.h"

#ifdef PPY_RT_STRINGS

#ifdef __cplusplus
extern "C" {
#endif

/** A string's header; PPY_STR_BYTES(s) are its bytes (NUL-terminated). */
typedef struct ppy_str {
  int64_t len; /* bytes */
  int64_t ncp; /* code points */
} ppy_str;

#define PPY_STR_BYTES(s) ((char*)(s) + sizeof(ppy_str))

/** |v|'s decimal digits written backwards to end at `buf + 24`; returns where
 * they start. By hand: snprintf was a fifth of building CSV rows (issue 35). */
static inline int ppy_decimal_digits(int64_t v, char buf[24]) {
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  int at = 24;
  do {
    buf[--at] = (char)('0' + (int)(u % 10));
    u /= 10;
  } while (u);
  return at;
}

/** |v|'s digits in the base of format type `type` (b, o, x, X; any other is
 * decimal) written to `digits`, most significant first; returns how many. */
static inline int ppy_radix_digits(int64_t v, char type, char digits[72]) {
  uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  unsigned base = type == 'b' ? 2 : type == 'o' ? 8 : (type == 'x' || type == 'X') ? 16 : 10;
  const char* dig = type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
  int nd = 0;
  do {
    digits[nd++] = dig[mag % base];
    mag /= base;
  } while (mag);
  for (int k = 0; k < nd / 2; ++k) {
    char t = digits[k];
    digits[k] = digits[nd - 1 - k];
    digits[nd - 1 - k] = t;
  }
  return nd;
}

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
PPY_RT_API ppy_str* ppy_str_zfill(const ppy_str* s, int64_t width);
PPY_RT_API ppy_str* ppy_str_center(const ppy_str* s, int64_t width);
PPY_RT_API int64_t ppy_str_isdigit(const ppy_str* s);
PPY_RT_API int64_t ppy_str_startswith(const ppy_str* s, const ppy_str* prefix);
PPY_RT_API int64_t ppy_str_endswith(const ppy_str* s, const ppy_str* suffix);
PPY_RT_API int64_t ppy_str_find(const ppy_str* s, const ppy_str* sub);
PPY_RT_API int64_t ppy_str_count(const ppy_str* s, const ppy_str* sub);
PPY_RT_API ppy_str* ppy_str_replace(const ppy_str* s, const ppy_str* old, const ppy_str* with);
PPY_RT_API ppy_str* ppy_str_repr(const ppy_str* s);
PPY_RT_API int64_t ppy_str_ord(const ppy_str* s);
PPY_RT_API ppy_str* ppy_str_chr(int64_t cp);
PPY_RT_API ppy_str* ppy_str_join(const ppy_str* sep, const ppy_list* parts);
PPY_RT_API ppy_list* ppy_str_split(const ppy_str* s, const ppy_str* sep);
PPY_RT_API ppy_list* ppy_str_split_ws(const ppy_str* s);
/** `s.lower().split()` in one pass (typical: no lowered copy of `s` is made). */
PPY_RT_API ppy_list* ppy_str_lower_split_ws(const ppy_str* s);

/** The string functions compiled code may call, for a JIT's symbol table;
 * and, as the JIT has always taken them from here, the format specs'
 * (ppy_print.h), the exceptions' (ppy_exc.h) and the lists' on the collector
 * (ppy_list.h). */
/* clang-format off */
#define PPY_STR_SYMBOLS(X)                                                                              \
  X(ppy_str_literal) X(ppy_print_string) X(ppy_str_concat) X(ppy_str_repeat) X(ppy_str_len)            \
  X(ppy_str_index) X(ppy_str_slice) X(ppy_str_compare) X(ppy_str_contains) X(ppy_str_from_i64)         \
  X(ppy_str_from_f64) X(ppy_str_from_bool) X(ppy_str_to_i64) X(ppy_str_to_f64) X(ppy_str_upper)        \
  X(ppy_str_lower) X(ppy_str_strip) X(ppy_str_lstrip) X(ppy_str_rstrip) X(ppy_str_startswith)          \
  X(ppy_str_endswith) X(ppy_str_find) X(ppy_str_count) X(ppy_str_replace) X(ppy_str_repr)              \
  X(ppy_str_ord) X(ppy_str_chr) X(ppy_str_join) X(ppy_str_split) X(ppy_str_split_ws)                   \
  PPY_FORMAT_SYMBOLS(X) PPY_EXC_SYMBOLS(X) PPY_LIST_SYMBOLS(X)
/* clang-format on */

#ifndef PPY_RT_DECLARATIONS_ONLY
/* Shared with the runtime's other files. */

/** A string of `n` bytes (filled by the caller) and `ncp` code points. */
PPY_RT_INTERNAL ppy_str* ppy_str_alloc(int64_t n, int64_t ncp);
/** A string of the `n` bytes at `b` (UTF-8). */
PPY_RT_INTERNAL ppy_str* ppy_str_make(const char* b, int64_t n);
/** The code points of `n` UTF-8 bytes (a str's `ncp`), a word at a time. */
PPY_RT_INTERNAL int64_t ppy_utf8_count(const char* b, int64_t n);
/** The byte offset of code point `i` (0 <= i <= ncp). */
PPY_RT_INTERNAL int64_t ppy_str_offset(const ppy_str* s, int64_t i);

/** Text that grows on the collector (a repr being written): `n` bytes of `cap`
 * at `b`; `{NULL, 0, 0}` is empty. */
typedef struct ppy_text {
  char* b;
  size_t n, cap;
} ppy_text;

/** Appends `n` bytes to `t`. */
PPY_RT_INTERNAL void ppy_text_add(ppy_text* t, const char* s, size_t n);

/** ppy_rt_raise of a message written in a local buffer: the raise keeps the
 * pointer and unwinds the buffer's frame before a handler reads it, so the
 * text is copied to the collector first. */
PPY_RT_INTERNAL PPY_RT_NORETURN void ppy_raise_copied(const char* name, const char* message);
#endif /* PPY_RT_DECLARATIONS_ONLY */

#ifdef __cplusplus
}
#endif

#endif /* PPY_RT_STRINGS */

#endif /* PPY_STR_H */
