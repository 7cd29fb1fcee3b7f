/* ppy_str.c: strings (ppy_str.h). */
#include "ppy_str.h"
#include "ppy_unicode.h"
#include "ppy_words.h" /* speedrt2: shared words and small ints */

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)

/** A string of `n` bytes (filled by the caller) and `ncp` code points. */
PPY_RT_INTERNAL ppy_str* ppy_str_alloc(int64_t n, int64_t ncp) {
  if (PPY_RT_UNLIKELY(!ppy_rt_gc_ready)) ppy_rt_gc_init();
  if (n < 0 || n > ((int64_t)1 << 40)) ppy_rt_raise("MemoryError", "");
  ppy_str* s = (ppy_str*)GC_MALLOC_ATOMIC(sizeof(ppy_str) + (size_t)n + 1);
  if (!s) ppy_rt_raise("MemoryError", "");
  s->len = n;
  s->ncp = ncp;
  PPY_STR_BYTES(s)[n] = '\0';
  return s;
}

PPY_RT_INTERNAL int64_t ppy_utf8_count(const char* b, int64_t n) {
  int64_t c = 0, i = 0;
  /* speedrt: a word at a time: a byte starts a code point unless it is 10xxxxxx. */
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, b + i, 8);
    uint64_t cont = w & ~(w << 1) & 0x8080808080808080ULL; /* top bit set, next bit clear */
    c += 8 - (int64_t)(((cont >> 7) * 0x0101010101010101ULL) >> 56); /* no popcount call without -mpopcnt */
  }
  for (; i < n; ++i) c += ((unsigned char)b[i] & 0xC0) != 0x80;
  return c;
}

PPY_RT_INTERNAL ppy_str* ppy_str_make(const char* b, int64_t n) {
  ppy_str* s = ppy_str_alloc(n, ppy_utf8_count(b, n));
  if (n) memcpy(PPY_STR_BYTES(s), b, (size_t)n);
  return s;
}

/** The byte offset of code point `i` (0 <= i <= ncp). */
PPY_RT_INTERNAL int64_t ppy_str_offset(const ppy_str* s, int64_t i) {
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
  if (a == b) return 0; /* one literal (a constant since issue 35) compared with itself */
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
  if ((uint64_t)v < PPY_WORDS_SMALL_INTS) return ppy_words_small_int(v); /* speedrt2 */
  char buf[24];
  int at = ppy_decimal_digits(v, buf);
  if (v < 0) buf[--at] = '-';
  int64_t n = (int64_t)sizeof buf - at;
  ppy_str* s = ppy_str_alloc(n, n);
  memcpy(PPY_STR_BYTES(s), buf + at, (size_t)n);
  return s;
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
    } else if (c >= 0x80) {
      /* Not printable (python3's str.isprintable): \xhh, \uhhhh or \Uhhhhhhhh. */
      int64_t at = i;
      uint32_t cp = ppy_utf8_next(b, &at);
      if (ppy_uc_flags(cp) & PPY_UC_PRINTABLE) {
        memcpy(o, b + i, (size_t)(at - i));
        o += at - i;
      } else {
        o += sprintf(o, cp < 0x100 ? "\\x%02x" : cp < 0x10000 ? "\\u%04x" : "\\U%08x", (unsigned)cp);
      }
      i = at - 1;
    } else {
      *o++ = (char)c;
    }
  }
  *o++ = q;
  *o = '\0';
  return out;
}

static int ppy_is_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f); }
/** The whitespace int() and float() take around a number: ASCII's, not \x1c-\x1f (CPython's
 * Py_ISSPACE; a non-ASCII one, \x85 and U+3000 among them, is a space by ppy_uc_ascii_number). */
static int ppy_number_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

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
  const ppy_str* t = ppy_uc_ascii_number(s); /* Unicode digits and whitespace, as python3 takes them */
  const unsigned char* b = (const unsigned char*)PPY_STR_BYTES(t);
  int64_t i = 0, n = t->len;
  while (i < n && ppy_number_space(b[i])) ++i;
  while (n > i && ppy_number_space(b[n - 1])) --n;
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

/** Copies the digits of `b` from `*k` to `*o`, across single underscores
 * between digits as Python's grammar allows; whether there was one. */
static int float_digit_run(const unsigned char* b, int64_t n, int64_t* k, char** o) {
  int any = 0, prev_digit = 0;
  for (; *k < n; ++*k) {
    unsigned char c = b[*k];
    if (c >= '0' && c <= '9') {
      *(*o)++ = (char)c;
      any = 1;
      prev_digit = 1;
    } else if (c == '_' && prev_digit && *k + 1 < n && b[*k + 1] >= '0' && b[*k + 1] <= '9') {
      prev_digit = 0;
    } else {
      break;
    }
  }
  return any;
}

/** `float(s)`: Python's grammar (whitespace, a sign, digits with underscores
 * between them, a point, an exponent, `inf`, `infinity`, `nan` in any case);
 * ValueError otherwise. */
PPY_RT_API double ppy_str_to_f64(const ppy_str* s) {
  const ppy_str* t = ppy_uc_ascii_number(s); /* Unicode digits and whitespace, as python3 takes them */
  const unsigned char* b = (const unsigned char*)PPY_STR_BYTES(t);
  int64_t i = 0, n = t->len;
  while (i < n && ppy_number_space(b[i])) ++i;
  while (n > i && ppy_number_space(b[n - 1])) --n;
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
  /* mantissa: digits [ . digits ] */
  int digits = float_digit_run(b, n, &k, &o);
  if (k < n && b[k] == '.') {
    *o++ = '.';
    ++k;
    digits |= float_digit_run(b, n, &k, &o);
  }
  if (!digits) ppy_str_value_error("could not convert string to float: ", s);
  if (k < n && (b[k] == 'e' || b[k] == 'E')) {
    *o++ = 'e';
    ++k;
    if (k < n && (b[k] == '+' || b[k] == '-')) *o++ = (char)b[k++];
    if (!float_digit_run(b, n, &k, &o)) ppy_str_value_error("could not convert string to float: ", s);
  }
  if (k != n) ppy_str_value_error("could not convert string to float: ", s);
  *o = '\0';
  return strtod(clean, NULL);
}

/** The `n` bytes at `b` written to `o` (may be `b`) with the ASCII letters
 * changed to upper (`upper`) or lower case; anything else kept (a documented
 * deviation). */
static void ppy_str_case_bytes(const char* b, char* o, int64_t n, int upper) {
  /* speedrt: eight bytes at a step (a tenth of counting words went to
   * `line.lower()` a byte and a branch at a time): a byte's top bit says
   * whether it lies in [from, from + 26), for the bytes under 0x80 only. */
  unsigned char from = upper ? 'a' : 'A';
  const uint64_t ones = 0x0101010101010101ULL, tops = 0x8080808080808080ULL;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, b + i, 8);
    uint64_t low = w & ~tops;
    uint64_t at_least = low + (0x80 - (uint64_t)from) * ones;
    uint64_t past = low + (0x80 - (uint64_t)from - 26) * ones;
    w ^= ((at_least ^ past) & ~w & tops) >> 2;
    memcpy(o + i, &w, 8);
  }
  for (; i < n; ++i) {
    unsigned char c = (unsigned char)b[i];
    o[i] = (char)(c ^ ((unsigned char)(c - from) < 26u ? 0x20 : 0));
  }
}

/** upper() / lower(): ASCII a word at a time; other text by the Unicode
 * table's full mappings (ppy_unicode.c), which may change its length. */
static ppy_str* ppy_str_case(const ppy_str* s, int upper) {
  if (s->len != s->ncp) return ppy_uc_convert(s, upper ? PPY_UC_UPPERCASE : PPY_UC_LOWERCASE);
  ppy_str* r = ppy_str_alloc(s->len, s->ncp);
  ppy_str_case_bytes(PPY_STR_BYTES(s), PPY_STR_BYTES(r), s->len, upper);
  return r;
}

PPY_RT_API ppy_str* ppy_str_upper(const ppy_str* s) { return ppy_str_case(s, 1); }
PPY_RT_API ppy_str* ppy_str_lower(const ppy_str* s) { return ppy_str_case(s, 0); }

static ppy_str* ppy_str_strip_sides(const ppy_str* s, int left, int right) {
  const unsigned char* b = (const unsigned char*)PPY_STR_BYTES(s);
  int64_t i = 0, n = s->len;
  if (s->len != s->ncp) { /* non-ASCII text: Python's whitespace has more than ASCII's (U+00A0, U+3000, ...) */
    const char* c = (const char*)b;
    for (int64_t k = 0; left && i < n && ppy_uc_space_next(c, &k);) i = k;
    for (int64_t k; right && n > i;) {
      int64_t at = k = ppy_utf8_prev(c, n);
      if (!ppy_uc_space_next(c, &k)) break;
      n = at;
    }
    return ppy_str_make(c + i, n - i);
  }
  if (left)
    while (i < n && ppy_is_space(b[i])) ++i;
  if (right)
    while (n > i && ppy_is_space(b[n - 1])) --n;
  return ppy_str_make((const char*)b + i, n - i);
}

PPY_RT_API ppy_str* ppy_str_strip(const ppy_str* s) { return ppy_str_strip_sides(s, 1, 1); }
PPY_RT_API ppy_str* ppy_str_lstrip(const ppy_str* s) { return ppy_str_strip_sides(s, 1, 0); }
PPY_RT_API ppy_str* ppy_str_rstrip(const ppy_str* s) { return ppy_str_strip_sides(s, 0, 1); }

/** `s` with `left` and `right` copies of `fill` (one ASCII byte) around it. */
static ppy_str* ppy_str_pad(const ppy_str* s, int64_t left, int64_t right, char fill) {
  ppy_str* r = ppy_str_alloc(s->len + left + right, s->ncp + left + right);
  char* o = PPY_STR_BYTES(r);
  memset(o, fill, (size_t)left);
  memcpy(o + left, PPY_STR_BYTES(s), (size_t)s->len);
  memset(o + left + s->len, fill, (size_t)right);
  return r;
}

/** str.zfill: zeros on the left up to `width` code points, after a leading sign. */
PPY_RT_API ppy_str* ppy_str_zfill(const ppy_str* s, int64_t width) {
  if (width <= s->ncp) return ppy_str_make(PPY_STR_BYTES(s), s->len);
  ppy_str* r = ppy_str_pad(s, width - s->ncp, 0, '0');
  char* o = PPY_STR_BYTES(r);
  if (s->len && (PPY_STR_BYTES(s)[0] == '+' || PPY_STR_BYTES(s)[0] == '-')) {
    o[0] = PPY_STR_BYTES(s)[0]; /* the sign moves to the front, as CPython's */
    o[width - s->ncp] = '0';
  }
  return r;
}

/** str.center: spaces on both sides up to `width`; the odd one goes left when
 * width is odd, as CPython's `left = marg / 2 + (marg & width & 1)`. */
PPY_RT_API ppy_str* ppy_str_center(const ppy_str* s, int64_t width) {
  if (width <= s->ncp) return ppy_str_make(PPY_STR_BYTES(s), s->len);
  int64_t marg = width - s->ncp, left = marg / 2 + (marg & width & 1);
  return ppy_str_pad(s, left, marg - left, ' ');
}

/** str.isdigit: non-empty and every code point a digit (Unicode's: '²' is). */
PPY_RT_API int64_t ppy_str_isdigit(const ppy_str* s) { return ppy_uc_all(s, PPY_UC_DIGIT); }

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

/** `ord(s)`: the code point of a one-character string; TypeError otherwise. */
PPY_RT_API int64_t ppy_str_ord(const ppy_str* s) {
  if (s->ncp != 1) {
    char msg[96];
    snprintf(msg, sizeof msg, "ord() expected a character, but string of length %lld found", (long long)s->ncp);
    ppy_raise_copied("TypeError", msg);
  }
  int64_t at = 0;
  return ppy_utf8_next(PPY_STR_BYTES(s), &at);
}

/** `chr(i)`: ValueError outside 0..0x10FFFF, and for a surrogate (a documented
 * deviation: Python makes a string it cannot print). */
PPY_RT_API ppy_str* ppy_str_chr(int64_t cp) {
  if (cp < 0 || cp > 0x10FFFF) ppy_rt_raise("ValueError", "chr() arg not in range(0x110000)");
  if (cp >= 0xD800 && cp <= 0xDFFF) ppy_rt_raise("ValueError", "chr() of a surrogate is outside the ppy subset");
  char b[4];
  int n = ppy_utf8_put((uint32_t)cp, b);
  ppy_str* r = ppy_str_alloc(n, 1);
  memcpy(PPY_STR_BYTES(r), b, (size_t)n);
  return r;
}

/* ------------------------------------------------------------------------ */
/* Text that grows, and strs from and to lists                               */

PPY_RT_INTERNAL void ppy_text_add(ppy_text* t, const char* s, size_t n) {
  if (n == 0) return;  // an empty piece of a text not yet grown: no offset on its null buffer
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

/** `sep.join(parts)`. */
PPY_RT_API ppy_str* ppy_str_join(const ppy_str* sep, const ppy_list* parts) {
  /* speedsort: the total length and code points first, then one str written in place. */
  const ppy_str* const* at = (const ppy_str* const*)parts->data;
  int64_t n = parts->len;
  if (n == 0) return ppy_str_alloc(0, 0);
  int64_t len = sep->len * (n - 1), ncp = sep->ncp * (n - 1);
  for (int64_t k = 0; k < n; ++k) {
    len += at[k]->len;
    ncp += at[k]->ncp;
  }
  ppy_str* r = ppy_str_alloc(len, ncp);
  char* o = PPY_STR_BYTES(r);
  for (int64_t k = 0; k < n; ++k) {
    if (k && sep->len) {
      memcpy(o, PPY_STR_BYTES(sep), (size_t)sep->len);
      o += sep->len;
    }
    memcpy(o, PPY_STR_BYTES(at[k]), (size_t)at[k]->len);
    o += at[k]->len;
  }
  return r;
}

/** The piece [b, b + n) of `s`: an ASCII string's pieces are ASCII (speedrt:
 * their code points are not counted again). */
static inline ppy_str* ppy_str_piece(const ppy_str* s, const char* b, int64_t n) {
  return ppy_words_piece(b, n, s->ncp == s->len); /* speedrt2: a recent word's handle, shared */
}

/** An empty list of strs with room for the pieces a split of `s` likely makes. */
static ppy_list* ppy_str_pieces(const ppy_str* s) {
  int64_t room = s->len / 4 + 1;
  ppy_list* r = ppy_list_make(room < 16 ? room : 16, 1);
  r->len = 0;
  return r;
}

/** `s.split(sep)`: ValueError for an empty separator. */
PPY_RT_API ppy_list* ppy_str_split(const ppy_str* s, const ppy_str* sep) {
  if (sep->len == 0) ppy_rt_raise("ValueError", "empty separator");
  ppy_list* r = ppy_str_pieces(s);
  const char* b = PPY_STR_BYTES(s);
  const char* e = b + s->len;
  const char* from = b;
  const char* x = PPY_STR_BYTES(sep);
  for (const char* at = b; at + sep->len <= e;) {
    at = (const char*)memchr(at, x[0], (size_t)(e - at - sep->len + 1));
    if (!at) break;
    if (memcmp(at, x, (size_t)sep->len) == 0) {
      ppy_list_append_ptr(r, ppy_str_piece(s, from, at - from));
      at += sep->len;
      from = at;
    } else {
      ++at;
    }
  }
  ppy_list_append_ptr(r, ppy_str_piece(s, from, e - from));
  return r;
}

/** Python's whitespace among the ASCII bytes: what `s.split()` separates by. */
static inline int ppy_str_ws(unsigned char c) {
  return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/** The end of the word of [b, b + n) that goes on at `j`: the first whitespace
 * at or after it, or n. typical: eight bytes at a step (a word of a text is
 * usually inside one step, where a byte at a time took a branch per byte): a
 * byte under 0x21 flags its step, and only whitespace among those ends the word. */
static inline int64_t ppy_str_word_end(const unsigned char* b, int64_t j, int64_t n) {
  const uint64_t ones = 0x0101010101010101ULL, tops = 0x8080808080808080ULL;
  while (j + 8 <= n) {
    uint64_t w;
    memcpy(&w, b + j, 8);
    uint64_t under = (w - 0x21 * ones) & ~w & tops; /* exact up to its first flagged byte */
    if (!under) {
      j += 8;
      continue;
    }
    int64_t k = j + (__builtin_ctzll(under) >> 3);
    if (ppy_str_ws(b[k])) return k;
    j = k + 1; /* a control byte that is not whitespace belongs to the word */
  }
  while (j < n && !ppy_str_ws(b[j])) ++j;
  return j;
}

/** The words of [b, b + n), the bytes of `s` or a lowered copy of them, as
 * `s.split()` cuts them: runs of ASCII whitespace separate; none at the ends. */
static inline ppy_list* ppy_str_split_words(const ppy_str* s, const unsigned char* b, int64_t n) {
  ppy_list* r = ppy_str_pieces(s);
  int64_t i = 0;
  for (;;) {
    while (i < n && ppy_str_ws(b[i])) ++i;
    if (i >= n) break;
    int64_t j = ppy_str_word_end(b, i + 1, n);
    ppy_list_append_ptr(r, ppy_str_piece(s, (const char*)b + i, j - i));
    i = j;
  }
  return r;
}

/** The words of non-ASCII `s` as `s.split()` cuts them: runs of Python's whitespace
 * (str.isspace, U+00A0 and U+3000 among them) separate. */
static ppy_list* ppy_str_split_uc_words(const ppy_str* s) {
  ppy_list* r = ppy_str_pieces(s);
  const char* b = PPY_STR_BYTES(s);
  int64_t i = 0, n = s->len;
  for (;;) {
    for (int64_t k = i; i < n && ppy_uc_space_next(b, &k);) i = k;
    if (i >= n) break;
    int64_t j = i;
    for (int64_t k = j; j < n && !ppy_uc_space_next(b, &k);) j = k;
    ppy_list_append_ptr(r, ppy_str_piece(s, b + i, j - i));
    i = j;
  }
  return r;
}

PPY_RT_API ppy_list* ppy_str_split_ws(const ppy_str* s) {
  if (s->len != s->ncp) return ppy_str_split_uc_words(s);
  return ppy_str_split_words(s, (const unsigned char*)PPY_STR_BYTES(s), s->len);
}

/** typical: a line lowered into a buffer on the stack, then cut: the words
 * come out shared as any split's, and no lowered copy is made on the heap. */
PPY_RT_API ppy_list* ppy_str_lower_split_ws(const ppy_str* s) {
  char low[2048];
  if (s->len > (int64_t)sizeof low || s->len != s->ncp) return ppy_str_split_ws(ppy_str_lower(s));
  ppy_str_case_bytes(PPY_STR_BYTES(s), low, s->len, 0);
  return ppy_str_split_words(s, (const unsigned char*)low, s->len);
}

PPY_RT_INTERNAL PPY_RT_NORETURN void ppy_raise_copied(const char* name, const char* message) {
  size_t n = strlen(message) + 1;
  char* kept = (char*)GC_MALLOC_ATOMIC(n);
  if (!kept) ppy_rt_raise("MemoryError", "");
  memcpy(kept, message, n);
  ppy_rt_raise(name, kept);
}

#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */
