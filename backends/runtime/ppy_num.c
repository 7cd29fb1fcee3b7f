/* ppy_num.c: the numeric builtins beyond the IR's arithmetic (ppy_num.h). */
#include "ppy_num.h"
#include "ppy_unicode.h"

#ifndef PPY_RT_DECLARATIONS_ONLY

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/** `round(x, ndigits)` of a float: the decimal nearest x's exact value, ties
 * to even, as CPython's (which rounds x's exact binary value through dtoa:
 * round(2.675, 2) is 2.67). printf's %.*f rounds that exact value the same
 * way; a negative ndigits rounds to tens, hundreds... */
PPY_RT_API double ppy_f64_round(double x, int64_t ndigits) {
  if (!isfinite(x) || x == 0.0) return x;
  if (ndigits > 323) return x;
  if (ndigits < -308) return 0.0 * x;
  if (ndigits < 0) {
    double p = pow(10.0, (double)-ndigits);
    double y = x / p;
    double r = nearbyint(y);
    if (fabs(y - trunc(y)) == 0.5) r = 2.0 * nearbyint(y / 2.0);
    double z = r * p;
    if (isinf(z)) ppy_rt_raise("OverflowError", "rounded value too large to represent");
    return z;
  }
  char buf[700]; /* a sign, 309 digits, a point and 323 more fit */
  snprintf(buf, sizeof buf, "%.*f", (int)ndigits, x);
  double z = strtod(buf, NULL);
  if (isinf(z)) ppy_rt_raise("OverflowError", "rounded value too large to represent");
  return z;
}

/** `round(n, ndigits)` of an int: n itself for ndigits >= 0, else to the
 * nearest multiple of 10**-ndigits, ties to even. */
PPY_RT_API int64_t ppy_i64_round(int64_t x, int64_t ndigits) {
  if (ndigits >= 0) return x;
  if (ndigits < -18) return 0;
  int64_t p = 1;
  for (int64_t k = 0; k < -ndigits; ++k) p *= 10;
  int64_t q = x / p, r = x % p;
  if (r < 0) { /* floor division */
    q -= 1;
    r += p;
  }
  if (2 * (__int128)r > p || (2 * (__int128)r == p && (q & 1))) q += 1;
  __int128 out = (__int128)q * p;
  if (out > INT64_MAX || out < INT64_MIN) ppy_rt_overflow();
  return (int64_t)out;
}

/** `pow(base, exp, mod)`: Python's result (the sign of mod); a negative exp
 * takes base's inverse modulo mod. */
PPY_RT_API int64_t ppy_pow_mod_i64(int64_t base, int64_t exp, int64_t mod) {
  if (mod == 0) ppy_rt_raise("ValueError", "pow() 3rd argument cannot be 0");
  __int128 m = mod < 0 ? -(__int128)mod : mod;
  __int128 b = ((__int128)base % m + m) % m;
  if (exp < 0) { /* the inverse of b modulo m, by extended Euclid */
    __int128 r0 = m, r1 = b, t0 = 0, t1 = 1;
    while (r1 != 0) {
      __int128 q = r0 / r1, r2 = r0 - q * r1, t2 = t0 - q * t1;
      r0 = r1;
      r1 = r2;
      t0 = t1;
      t1 = t2;
    }
    if (r0 != 1) ppy_rt_raise("ValueError", "base is not invertible for the given modulus");
    b = (t0 % m + m) % m;
  }
  __int128 r = 1 % m;
  for (uint64_t e = exp < 0 ? (uint64_t)0 - (uint64_t)exp : (uint64_t)exp; e; e >>= 1) {
    if (e & 1) r = r * b % m;
    b = b * b % m;
  }
  if (mod < 0 && r != 0) r -= m;
  return (int64_t)r;
}

#ifdef PPY_RT_STRINGS

static PPY_RT_NORETURN void ppy_num_bad_literal(const ppy_str* s, int64_t base) {
  const ppy_str* r = ppy_str_repr(s);
  size_t n = (size_t)r->len + 64;
  char* msg = (char*)GC_MALLOC_ATOMIC(n);
  if (!msg) ppy_rt_raise("MemoryError", "");
  snprintf(msg, n, "invalid literal for int() with base %lld: %s", (long long)base, PPY_STR_BYTES(r));
  ppy_rt_raise("ValueError", msg);
}

/** int()'s whitespace: ASCII's, not \x1c-\x1f (CPython's Py_ISSPACE). */
static int ppy_num_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

static int ppy_num_digit(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

/** `int(s, base)`: Python's grammar (whitespace around, a sign, the base's
 * prefix where the base is 16, 8, 2 or 0, single underscores between digits;
 * base 0 reads the prefix and refuses other leading zeros); ValueError with
 * Python's message; OverflowError past i64 (as int(s)). */
PPY_RT_API int64_t ppy_str_to_i64_base(const ppy_str* s, int64_t base) {
  if (base != 0 && (base < 2 || base > 36)) ppy_rt_raise("ValueError", "int() base must be >= 2 and <= 36, or 0");
  const ppy_str* t = ppy_uc_ascii_number(s); /* Unicode digits and whitespace, as python3 takes them */
  const unsigned char* b = (const unsigned char*)PPY_STR_BYTES(t);
  int64_t i = 0, n = t->len, shown = base;
  while (i < n && ppy_num_space(b[i])) ++i;
  while (n > i && ppy_num_space(b[n - 1])) --n;
  int neg = 0;
  if (i < n && (b[i] == '+' || b[i] == '-')) neg = b[i++] == '-';
  int prefixed = 0;
  if (i + 1 < n && b[i] == '0') {
    char p = (char)(b[i + 1] | 0x20);
    int pb = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
    if (pb && (base == 0 || base == pb)) {
      base = pb;
      i += 2;
      prefixed = 1;
      if (i < n && b[i] == '_') ++i; /* 0x_1f */
    }
  }
  int zero_lead = 0;
  if (base == 0) {
    base = 10;
    zero_lead = i < n && b[i] == '0';
  }
  if (i >= n) ppy_num_bad_literal(s, shown);
  uint64_t v = 0;
  int over = 0, nonzero = 0;
  for (int64_t k = i; k < n; ++k) {
    if (b[k] == '_') {
      if (k == i || k + 1 >= n || b[k + 1] == '_') ppy_num_bad_literal(s, shown);
      continue;
    }
    int d = ppy_num_digit(b[k]);
    if (d >= base) ppy_num_bad_literal(s, shown);
    if (d) nonzero = 1;
    if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) over = 1;
    v = v * (uint64_t)base + (uint64_t)d;
  }
  if (zero_lead && nonzero && !prefixed) ppy_num_bad_literal(s, shown);
  if (over || v > (uint64_t)INT64_MAX + (uint64_t)neg) ppy_rt_overflow();
  return neg ? (int64_t)(0 - v) : (int64_t)v;
}

#endif /* PPY_RT_STRINGS */

#endif /* PPY_RT_DECLARATIONS_ONLY */
