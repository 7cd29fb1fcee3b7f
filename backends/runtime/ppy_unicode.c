/* ppy_unicode.c: the str methods that read the Unicode table (ppy_unicode.h),
 * written after CPython's Objects/unicodeobject.c so they answer as it does. */
#include "ppy_unicode.h"

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)

PPY_RT_INTERNAL int64_t ppy_uc_all(const ppy_str* s, unsigned flags) {
  if (s->len == 0) return 0;
  const char* b = PPY_STR_BYTES(s);
  for (int64_t i = 0; i < s->len;)
    if (!(ppy_uc_flags(ppy_utf8_next(b, &i)) & flags)) return 0;
  return 1;
}

PPY_RT_INTERNAL int64_t ppy_uc_is_cased(const ppy_str* s, int upper) {
  unsigned same = upper ? PPY_UC_UPPER : PPY_UC_LOWER, other = upper ? PPY_UC_LOWER : PPY_UC_UPPER;
  const char* b = PPY_STR_BYTES(s);
  int cased = 0;
  for (int64_t i = 0; i < s->len;) {
    unsigned f = ppy_uc_flags(ppy_utf8_next(b, &i));
    if (f & (other | PPY_UC_TITLE)) return 0;
    if (f & same) cased = 1;
  }
  return cased;
}

PPY_RT_API int64_t ppy_str_isdecimal(const ppy_str* s) { return ppy_uc_all(s, PPY_UC_DECIMAL); }
PPY_RT_API int64_t ppy_str_isnumeric(const ppy_str* s) { return ppy_uc_all(s, PPY_UC_NUMERIC); }
/** The empty string is printable, as in python3. */
PPY_RT_API int64_t ppy_str_isprintable(const ppy_str* s) { return s->len == 0 || ppy_uc_all(s, PPY_UC_PRINTABLE); }

/** Upper and title case only after an uncased character, lower case only after
 * a cased one, and some cased character. */
PPY_RT_API int64_t ppy_str_istitle(const ppy_str* s) {
  const char* b = PPY_STR_BYTES(s);
  int cased = 0, previous_cased = 0;
  for (int64_t i = 0; i < s->len;) {
    unsigned f = ppy_uc_flags(ppy_utf8_next(b, &i));
    if (f & (PPY_UC_UPPER | PPY_UC_TITLE)) {
      if (previous_cased) return 0;
      previous_cased = cased = 1;
    } else if (f & PPY_UC_LOWER) {
      if (!previous_cased) return 0;
      previous_cased = cased = 1;
    } else {
      previous_cased = 0;
    }
  }
  return cased;
}

static void ppy_uc_add_cp(ppy_text* t, uint32_t cp) {
  char b[4];
  ppy_text_add(t, b, (size_t)ppy_utf8_put(cp, b));
}

/** Appends mapping `which` (PPY_UC_TO_*) of `cp` to `t`. */
static void ppy_uc_add_mapped(ppy_text* t, uint32_t cp, int which) {
  const ppy_uc_record* r = ppy_uc_record_of(cp);
  if (!(r->flags & (PPY_UC_EXT_UPPER << which))) {
    ppy_uc_add_cp(t, cp + (uint32_t)r->map[which]);
    return;
  }
  const uint32_t* ext = ppy_uc_ext_of(r->map[which]);
  for (uint32_t k = 0; k < ext[0]; ++k) ppy_uc_add_cp(t, ext[1 + k]);
}

/** Whether the capital sigma at cps[i] ends a word (Unicode's Final_Sigma:
 * a cased letter before it and none after, case-ignorable ones skipped). */
static int ppy_uc_final_sigma(const uint32_t* cps, int64_t n, int64_t i) {
  int64_t j = i - 1;
  while (j >= 0 && (ppy_uc_flags(cps[j]) & PPY_UC_IGNORABLE)) --j;
  if (j < 0 || !(ppy_uc_flags(cps[j]) & PPY_UC_CASED)) return 0;
  j = i + 1;
  while (j < n && (ppy_uc_flags(cps[j]) & PPY_UC_IGNORABLE)) ++j;
  return j == n || !(ppy_uc_flags(cps[j]) & PPY_UC_CASED);
}

/** Appends cps[i] lowered, the capital sigma as its context says. */
static void ppy_uc_add_lower(ppy_text* t, const uint32_t* cps, int64_t n, int64_t i) {
  if (cps[i] == 0x3A3) {
    ppy_text_add(t, ppy_uc_final_sigma(cps, n, i) ? "\xCF\x82" : "\xCF\x83", 2);
    return;
  }
  ppy_uc_add_mapped(t, cps[i], PPY_UC_TO_LOWER);
}

/** ppy_uc_convert of ASCII text (as many code points as bytes), a byte at a
 * time: ASCII's case is its letters', and no mapping changes a length. */
static ppy_str* ppy_uc_convert_ascii(const ppy_str* s, ppy_uc_conversion how) {
  ppy_str* r = ppy_str_alloc(s->len, s->ncp);
  const char* b = PPY_STR_BYTES(s);
  char* o = PPY_STR_BYTES(r);
  int previous_cased = 0;
  for (int64_t i = 0; i < s->len; ++i) {
    char c = b[i];
    int up = c >= 'A' && c <= 'Z', low = c >= 'a' && c <= 'z', to_upper = 0;
    switch (how) {
      case PPY_UC_UPPERCASE: to_upper = 1; break;
      case PPY_UC_LOWERCASE:
      case PPY_UC_CASEFOLD: break;
      case PPY_UC_TITLECASE:
        to_upper = !previous_cased;
        previous_cased = up || low;
        break;
      case PPY_UC_CAPITALIZE: to_upper = i == 0; break;
      case PPY_UC_SWAPCASE: to_upper = low; break;
    }
    o[i] = to_upper ? (char)(low ? c - 32 : c) : (char)(up ? c + 32 : c);
  }
  return r;
}

PPY_RT_INTERNAL ppy_str* ppy_uc_convert(const ppy_str* s, ppy_uc_conversion how) {
  if (s->len == s->ncp) return ppy_uc_convert_ascii(s, how);
  uint32_t* cps = (uint32_t*)GC_MALLOC_ATOMIC((size_t)(s->ncp + 1) * sizeof(uint32_t));
  if (!cps) ppy_rt_raise("MemoryError", "");
  int64_t n = 0;
  for (int64_t i = 0; i < s->len;) cps[n++] = ppy_utf8_next(PPY_STR_BYTES(s), &i);
  ppy_text t = {NULL, 0, 0};
  int previous_cased = 0;
  for (int64_t i = 0; i < n; ++i) {
    unsigned f = ppy_uc_flags(cps[i]);
    switch (how) {
      case PPY_UC_UPPERCASE: ppy_uc_add_mapped(&t, cps[i], PPY_UC_TO_UPPER); break;
      case PPY_UC_LOWERCASE: ppy_uc_add_lower(&t, cps, n, i); break;
      case PPY_UC_CASEFOLD: ppy_uc_add_mapped(&t, cps[i], PPY_UC_TO_FOLD); break;
      case PPY_UC_TITLECASE:
        if (previous_cased)
          ppy_uc_add_lower(&t, cps, n, i);
        else
          ppy_uc_add_mapped(&t, cps[i], PPY_UC_TO_TITLE);
        previous_cased = (f & PPY_UC_CASED) != 0;
        break;
      case PPY_UC_CAPITALIZE:
        if (i == 0)
          ppy_uc_add_mapped(&t, cps[i], PPY_UC_TO_TITLE);
        else
          ppy_uc_add_lower(&t, cps, n, i);
        break;
      case PPY_UC_SWAPCASE:
        if (f & PPY_UC_UPPER)
          ppy_uc_add_lower(&t, cps, n, i);
        else if (f & PPY_UC_LOWER)
          ppy_uc_add_mapped(&t, cps[i], PPY_UC_TO_UPPER);
        else
          ppy_uc_add_cp(&t, cps[i]);
        break;
    }
  }
  return ppy_str_make(t.b ? t.b : "", (int64_t)t.n);
}

/** The value of decimal digit `cp`: Unicode's decimal digits come in runs of ten from
 * their zero (the mathematical ones five runs side by side). */
static int ppy_uc_decimal_value(uint32_t cp) {
  uint32_t zero = cp;
  while (zero > 0 && cp - zero < 60 && (ppy_uc_flags(zero - 1) & PPY_UC_DECIMAL)) --zero;
  return (int)((cp - zero) % 10);
}

PPY_RT_INTERNAL const ppy_str* ppy_uc_ascii_number(const ppy_str* s) {
  if (s->len == s->ncp) return s;
  const char* b = PPY_STR_BYTES(s);
  ppy_str* r = ppy_str_alloc(s->ncp, s->ncp);
  char* o = PPY_STR_BYTES(r);
  for (int64_t i = 0; i < s->len;) {
    uint32_t cp = ppy_utf8_next(b, &i);
    unsigned f = cp < 0x80 ? 0 : ppy_uc_flags(cp);
    *o++ = cp < 0x80 ? (char)cp : (f & PPY_UC_SPACE) ? ' ' : (f & PPY_UC_DECIMAL) ? (char)('0' + ppy_uc_decimal_value(cp)) : '?';
  }
  return r;
}

#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */
