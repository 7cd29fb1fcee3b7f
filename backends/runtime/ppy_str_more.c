/* ppy_str_more.c: the str methods beyond ppy_str.c's (ppy_str_more.h). */
#include "ppy_str_more.h"
#include "ppy_unicode.h"

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)

/* ------------------------------------------------------------------------ */
/* Classification and case: the Unicode table's (ppy_unicode.c)              */

PPY_RT_API int64_t ppy_str_isalpha(const ppy_str* s) { return ppy_uc_all(s, PPY_UC_ALPHA); }
/** isalnum: each code point alpha, decimal, digit or numeric, as CPython's. */
PPY_RT_API int64_t ppy_str_isalnum(const ppy_str* s) {
  return ppy_uc_all(s, PPY_UC_ALPHA | PPY_UC_DECIMAL | PPY_UC_DIGIT | PPY_UC_NUMERIC);
}
PPY_RT_API int64_t ppy_str_isspace(const ppy_str* s) { return ppy_uc_all(s, PPY_UC_SPACE); }
PPY_RT_API int64_t ppy_str_islower(const ppy_str* s) { return ppy_uc_is_cased(s, 0); }
PPY_RT_API int64_t ppy_str_isupper(const ppy_str* s) { return ppy_uc_is_cased(s, 1); }

PPY_RT_API ppy_str* ppy_str_capitalize(const ppy_str* s) { return ppy_uc_convert(s, PPY_UC_CAPITALIZE); }
/** Each word's first cased character title case, the rest lower (a word: a
 * run of cased characters, as CPython's title). */
PPY_RT_API ppy_str* ppy_str_title(const ppy_str* s) { return ppy_uc_convert(s, PPY_UC_TITLECASE); }
PPY_RT_API ppy_str* ppy_str_swapcase(const ppy_str* s) { return ppy_uc_convert(s, PPY_UC_SWAPCASE); }
PPY_RT_API ppy_str* ppy_str_casefold(const ppy_str* s) { return ppy_uc_convert(s, PPY_UC_CASEFOLD); }

/** A copy of `s`. */
static ppy_str* ppy_sm_copy(const ppy_str* s) { return ppy_str_make(PPY_STR_BYTES(s), s->len); }

/* ------------------------------------------------------------------------ */
/* Padding with a fill character                                             */

/** `s` with `left` and `right` copies of `fill` (one code point) around it. */
static ppy_str* ppy_sm_pad(const ppy_str* s, int64_t width, const ppy_str* fill, int where) {
  if (fill->ncp != 1) ppy_rt_raise("TypeError", "The fill character must be exactly one character long");
  if (width <= s->ncp) return ppy_sm_copy(s);
  int64_t marg = width - s->ncp;
  int64_t left = where < 0 ? 0 : where > 0 ? marg : marg / 2 + (marg & width & 1);
  int64_t right = marg - left, fl = fill->len;
  ppy_str* r = ppy_str_alloc(s->len + marg * fl, width);
  char* o = PPY_STR_BYTES(r);
  for (int64_t k = 0; k < left; ++k, o += fl) memcpy(o, PPY_STR_BYTES(fill), (size_t)fl);
  memcpy(o, PPY_STR_BYTES(s), (size_t)s->len);
  o += s->len;
  for (int64_t k = 0; k < right; ++k, o += fl) memcpy(o, PPY_STR_BYTES(fill), (size_t)fl);
  return r;
}

PPY_RT_API ppy_str* ppy_str_ljust(const ppy_str* s, int64_t width, const ppy_str* fill) {
  return ppy_sm_pad(s, width, fill, -1);
}
PPY_RT_API ppy_str* ppy_str_rjust(const ppy_str* s, int64_t width, const ppy_str* fill) {
  return ppy_sm_pad(s, width, fill, 1);
}
PPY_RT_API ppy_str* ppy_str_center_fill(const ppy_str* s, int64_t width, const ppy_str* fill) {
  return ppy_sm_pad(s, width, fill, 0);
}

/* ------------------------------------------------------------------------ */
/* Stripping a set of characters                                             */

/** The length in bytes of the code point starting at `b[i]` (of `n`). */
static int64_t ppy_sm_cp_len(const char* b, int64_t i, int64_t n) {
  int64_t e = i + 1;
  while (e < n && ((unsigned char)b[e] & 0xC0) == 0x80) ++e;
  return e - i;
}

/** Whether the code point of `k` bytes at `p` is one of `chars`. */
static int ppy_sm_in(const ppy_str* chars, const char* p, int64_t k) {
  const char* c = PPY_STR_BYTES(chars);
  for (int64_t i = 0; i < chars->len;) {
    int64_t m = ppy_sm_cp_len(c, i, chars->len);
    if (m == k && memcmp(c + i, p, (size_t)k) == 0) return 1;
    i += m;
  }
  return 0;
}

static ppy_str* ppy_sm_strip(const ppy_str* s, const ppy_str* chars, int left, int right) {
  const char* b = PPY_STR_BYTES(s);
  int64_t i = 0, n = s->len;
  if (left)
    while (i < n) {
      int64_t k = ppy_sm_cp_len(b, i, n);
      if (!ppy_sm_in(chars, b + i, k)) break;
      i += k;
    }
  if (right)
    while (n > i) {
      int64_t start = n - 1;
      while (start > i && ((unsigned char)b[start] & 0xC0) == 0x80) --start;
      if (!ppy_sm_in(chars, b + start, n - start)) break;
      n = start;
    }
  return ppy_str_make(b + i, n - i);
}

PPY_RT_API ppy_str* ppy_str_strip_chars(const ppy_str* s, const ppy_str* chars) { return ppy_sm_strip(s, chars, 1, 1); }
PPY_RT_API ppy_str* ppy_str_lstrip_chars(const ppy_str* s, const ppy_str* chars) {
  return ppy_sm_strip(s, chars, 1, 0);
}
PPY_RT_API ppy_str* ppy_str_rstrip_chars(const ppy_str* s, const ppy_str* chars) {
  return ppy_sm_strip(s, chars, 0, 1);
}

/* ------------------------------------------------------------------------ */
/* Searching a range [start, end) of code points                             */

static int64_t ppy_sm_count_cps(const char* b, int64_t n) {
  int64_t c = 0;
  for (int64_t i = 0; i < n; ++i) c += ((unsigned char)b[i] & 0xC0) != 0x80;
  return c;
}

/** start and end adjusted as a slice's (negative from the end, clamped). */
static void ppy_sm_range(const ppy_str* s, int64_t* start, int64_t* end) {
  int64_t n = s->ncp;
  if (*end > n)
    *end = n;
  else if (*end < 0) {
    *end += n;
    if (*end < 0) *end = 0;
  }
  if (*start < 0) {
    *start += n;
    if (*start < 0) *start = 0;
  }
}

/** The code point index of the first (or, `last`, the last) `sub` in
 * s[start:end], or -1. */
static int64_t ppy_sm_find(const ppy_str* s, const ppy_str* sub, int64_t start, int64_t end, int last) {
  ppy_sm_range(s, &start, &end);
  if (start > s->ncp || end - start < sub->ncp) return -1;
  const char* b = PPY_STR_BYTES(s);
  int64_t lo = ppy_str_offset(s, start), hi = ppy_str_offset(s, end);
  int64_t found = -1;
  for (int64_t i = lo; i + sub->len <= hi; ++i) {
    if (((unsigned char)b[i] & 0xC0) == 0x80) continue;
    if (memcmp(b + i, PPY_STR_BYTES(sub), (size_t)sub->len) == 0) {
      found = i;
      if (!last) break;
    }
  }
  return found < 0 ? -1 : ppy_sm_count_cps(b, found);
}

PPY_RT_API int64_t ppy_str_find_range(const ppy_str* s, const ppy_str* sub, int64_t start, int64_t end) {
  return ppy_sm_find(s, sub, start, end, 0);
}
PPY_RT_API int64_t ppy_str_rfind_range(const ppy_str* s, const ppy_str* sub, int64_t start, int64_t end) {
  return ppy_sm_find(s, sub, start, end, 1);
}
PPY_RT_API int64_t ppy_str_index_range(const ppy_str* s, const ppy_str* sub, int64_t start, int64_t end) {
  int64_t at = ppy_sm_find(s, sub, start, end, 0);
  if (at < 0) ppy_rt_raise("ValueError", "substring not found");
  return at;
}
PPY_RT_API int64_t ppy_str_rindex_range(const ppy_str* s, const ppy_str* sub, int64_t start, int64_t end) {
  int64_t at = ppy_sm_find(s, sub, start, end, 1);
  if (at < 0) ppy_rt_raise("ValueError", "substring not found");
  return at;
}

/** Non-overlapping occurrences in s[start:end]. */
PPY_RT_API int64_t ppy_str_count_range(const ppy_str* s, const ppy_str* sub, int64_t start, int64_t end) {
  ppy_sm_range(s, &start, &end);
  if (start > s->ncp || end < start) return 0;
  if (sub->len == 0) return end - start + 1;
  const char* b = PPY_STR_BYTES(s);
  int64_t lo = ppy_str_offset(s, start), hi = ppy_str_offset(s, end), c = 0;
  for (int64_t i = lo; i + sub->len <= hi;) {
    if (memcmp(b + i, PPY_STR_BYTES(sub), (size_t)sub->len) == 0) {
      ++c;
      i += sub->len;
    } else {
      ++i;
    }
  }
  return c;
}

/** Whether s[start:end] begins (or, `at_end`, ends) with `part`. */
static int64_t ppy_sm_affix(const ppy_str* s, const ppy_str* part, int64_t start, int64_t end, int at_end) {
  ppy_sm_range(s, &start, &end);
  if (start > s->ncp || end - start < part->ncp) return 0;
  int64_t lo = ppy_str_offset(s, start), hi = ppy_str_offset(s, end);
  int64_t at = at_end ? hi - part->len : lo;
  if (at < lo) return 0;
  return memcmp(PPY_STR_BYTES(s) + at, PPY_STR_BYTES(part), (size_t)part->len) == 0;
}

PPY_RT_API int64_t ppy_str_startswith_range(const ppy_str* s, const ppy_str* prefix, int64_t start, int64_t end) {
  return ppy_sm_affix(s, prefix, start, end, 0);
}
PPY_RT_API int64_t ppy_str_endswith_range(const ppy_str* s, const ppy_str* suffix, int64_t start, int64_t end) {
  return ppy_sm_affix(s, suffix, start, end, 1);
}

/* ------------------------------------------------------------------------ */
/* partition, splitlines, split with maxsplit                                */

/** The byte offset of the first (or last) `sep` in `s`, or -1. */
static int64_t ppy_sm_search(const ppy_str* s, const ppy_str* sep, int last) {
  const char* b = PPY_STR_BYTES(s);
  int64_t found = -1;
  for (int64_t i = 0; i + sep->len <= s->len; ++i)
    if (memcmp(b + i, PPY_STR_BYTES(sep), (size_t)sep->len) == 0) {
      found = i;
      if (!last) break;
    }
  return found;
}

static ppy_list* ppy_sm_partition(const ppy_str* s, const ppy_str* sep, int last) {
  if (sep->len == 0) ppy_rt_raise("ValueError", "empty separator");
  ppy_list* r = ppy_list_make(0, 1);
  const char* b = PPY_STR_BYTES(s);
  int64_t at = ppy_sm_search(s, sep, last);
  if (at < 0) {
    ppy_str* empty = ppy_str_alloc(0, 0);
    ppy_list_append_ptr(r, last ? empty : ppy_sm_copy(s));
    ppy_list_append_ptr(r, ppy_str_alloc(0, 0));
    ppy_list_append_ptr(r, last ? ppy_sm_copy(s) : ppy_str_alloc(0, 0));
    return r;
  }
  ppy_list_append_ptr(r, ppy_str_make(b, at));
  ppy_list_append_ptr(r, ppy_sm_copy(sep));
  ppy_list_append_ptr(r, ppy_str_make(b + at + sep->len, s->len - at - sep->len));
  return r;
}

PPY_RT_API ppy_list* ppy_str_partition(const ppy_str* s, const ppy_str* sep) { return ppy_sm_partition(s, sep, 0); }
PPY_RT_API ppy_list* ppy_str_rpartition(const ppy_str* s, const ppy_str* sep) { return ppy_sm_partition(s, sep, 1); }

/** The length of the line break at `b[i]` (of `n`), 0 if none: \n, \r, \r\n,
 * \v, \f, \x1c-\x1e, \x85, U+2028, U+2029, as str.splitlines. */
static int64_t ppy_sm_line_break(const unsigned char* b, int64_t i, int64_t n) {
  unsigned char c = b[i];
  if (c == '\r') return i + 1 < n && b[i + 1] == '\n' ? 2 : 1;
  if (c == '\n' || c == '\v' || c == '\f' || (c >= 0x1c && c <= 0x1e)) return 1;
  if (c == 0xC2 && i + 1 < n && b[i + 1] == 0x85) return 2;
  if (c == 0xE2 && i + 2 < n && b[i + 1] == 0x80 && (b[i + 2] == 0xA8 || b[i + 2] == 0xA9)) return 3;
  return 0;
}

/** `s.splitlines(keepends)`: each line with its break when `keepends`. */
PPY_RT_API ppy_list* ppy_str_splitlines_keep(const ppy_str* s, int64_t keepends) {
  ppy_list* r = ppy_list_make(0, 1);
  const unsigned char* b = (const unsigned char*)PPY_STR_BYTES(s);
  int64_t n = s->len, from = 0;
  for (int64_t i = 0; i < n;) {
    int64_t k = ppy_sm_line_break(b, i, n);
    if (k == 0) {
      ++i;
      continue;
    }
    ppy_list_append_ptr(r, ppy_str_make((const char*)b + from, i - from + (keepends ? k : 0)));
    i += k;
    from = i;
  }
  if (from < n) ppy_list_append_ptr(r, ppy_str_make((const char*)b + from, n - from));
  return r;
}

PPY_RT_API ppy_list* ppy_str_splitlines(const ppy_str* s) { return ppy_str_splitlines_keep(s, 0); }

/** `s.split(sep, maxsplit)`: at most `maxsplit` splits (all when negative). */
PPY_RT_API ppy_list* ppy_str_split_max(const ppy_str* s, const ppy_str* sep, int64_t maxsplit) {
  if (sep->len == 0) ppy_rt_raise("ValueError", "empty separator");
  ppy_list* r = ppy_list_make(0, 1);
  const char* b = PPY_STR_BYTES(s);
  int64_t from = 0;
  for (int64_t at = 0; at + sep->len <= s->len && maxsplit != 0;) {
    if (memcmp(b + at, PPY_STR_BYTES(sep), (size_t)sep->len) == 0) {
      ppy_list_append_ptr(r, ppy_str_make(b + from, at - from));
      at += sep->len;
      from = at;
      --maxsplit;
    } else {
      ++at;
    }
  }
  ppy_list_append_ptr(r, ppy_str_make(b + from, s->len - from));
  return r;
}

/** `s.rsplit(sep, maxsplit)`: the splits taken from the right. */
PPY_RT_API ppy_list* ppy_str_rsplit_max(const ppy_str* s, const ppy_str* sep, int64_t maxsplit) {
  if (sep->len == 0) ppy_rt_raise("ValueError", "empty separator");
  ppy_list* parts = ppy_list_make(0, 1);
  const char* b = PPY_STR_BYTES(s);
  int64_t to = s->len;
  for (int64_t at = s->len - sep->len; at >= 0 && maxsplit != 0;) {
    if (memcmp(b + at, PPY_STR_BYTES(sep), (size_t)sep->len) == 0) {
      ppy_list_append_ptr(parts, ppy_str_make(b + at + sep->len, to - at - sep->len));
      to = at;
      at -= sep->len;
      --maxsplit;
    } else {
      --at;
    }
  }
  ppy_list_append_ptr(parts, ppy_str_make(b, to));
  ppy_list_reverse(parts);
  return parts;
}

/** `s.rsplit()`: as `s.split()` (without maxsplit the direction is unseen). */
PPY_RT_API ppy_list* ppy_str_rsplit_ws(const ppy_str* s) { return ppy_str_split_ws(s); }

/** Whether the code point of `b` that ends at `i` (i > 0) is whitespace as `split()` takes
 * it (str.isspace, ppy_unicode.h); `*at` its start. */
static int ppy_sm_ws_before(const char* b, int64_t i, int64_t* at) {
  int64_t k = *at = ppy_utf8_prev(b, i);
  return ppy_uc_space_next(b, &k);
}

/** `s.split(None, maxsplit)`: runs of whitespace separate, at most `maxsplit`
 * splits (all when negative); the rest, its leading whitespace gone, is the last. */
PPY_RT_API ppy_list* ppy_str_split_ws_max(const ppy_str* s, int64_t maxsplit) {
  ppy_list* r = ppy_list_make(0, 1);
  const unsigned char* b = (const unsigned char*)PPY_STR_BYTES(s);
  int64_t n = s->len, i = 0;
  for (;;) {
    for (int64_t k = i; i < n && ppy_uc_space_next((const char*)b, &k);) i = k;
    if (i >= n) break;
    if (maxsplit == 0) {
      ppy_list_append_ptr(r, ppy_str_make((const char*)b + i, n - i));
      break;
    }
    int64_t j = i;
    for (int64_t k = j; j < n && !ppy_uc_space_next((const char*)b, &k);) j = k;
    ppy_list_append_ptr(r, ppy_str_make((const char*)b + i, j - i));
    --maxsplit;
    i = j;
  }
  return r;
}

/** `s.rsplit(None, maxsplit)`: as split_ws_max, the splits taken from the right. */
PPY_RT_API ppy_list* ppy_str_rsplit_ws_max(const ppy_str* s, int64_t maxsplit) {
  ppy_list* r = ppy_list_make(0, 1);
  const unsigned char* b = (const unsigned char*)PPY_STR_BYTES(s);
  int64_t i = s->len;
  for (;;) {
    for (int64_t at; i > 0 && ppy_sm_ws_before((const char*)b, i, &at);) i = at;
    if (i <= 0) break;
    if (maxsplit == 0) {
      ppy_list_append_ptr(r, ppy_str_make((const char*)b, i));
      break;
    }
    int64_t j = i;
    for (int64_t at; j > 0 && !ppy_sm_ws_before((const char*)b, j, &at);) j = at;
    ppy_list_append_ptr(r, ppy_str_make((const char*)b + j, i - j));
    --maxsplit;
    i = j;
  }
  ppy_list_reverse(r);
  return r;
}


/** Tabs replaced by spaces to the next multiple of `tabsize` (a newline or a
 * carriage return starts the column again). */
PPY_RT_API ppy_str* ppy_str_expandtabs(const ppy_str* s, int64_t tabsize) {
  ppy_text t = {NULL, 0, 0};
  const char* b = PPY_STR_BYTES(s);
  int64_t col = 0;
  for (int64_t i = 0; i < s->len; ++i) {
    char c = b[i];
    if (c == '\t') {
      if (tabsize > 0) {
        int64_t spaces = tabsize - col % tabsize;
        for (int64_t k = 0; k < spaces; ++k) ppy_text_add(&t, " ", 1);
        col += spaces;
      }
      continue;
    }
    ppy_text_add(&t, &c, 1);
    if (c == '\n' || c == '\r')
      col = 0;
    else if (((unsigned char)c & 0xC0) != 0x80)
      ++col;
  }
  return ppy_str_make(t.b ? t.b : "", (int64_t)t.n);
}

PPY_RT_API ppy_str* ppy_str_removeprefix(const ppy_str* s, const ppy_str* prefix) {
  if (ppy_str_startswith(s, prefix)) return ppy_str_make(PPY_STR_BYTES(s) + prefix->len, s->len - prefix->len);
  return ppy_sm_copy(s);
}

PPY_RT_API ppy_str* ppy_str_removesuffix(const ppy_str* s, const ppy_str* suffix) {
  if (ppy_str_endswith(s, suffix)) return ppy_str_make(PPY_STR_BYTES(s), s->len - suffix->len);
  return ppy_sm_copy(s);
}

#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */
