/* ppy_print.c: printing and formatting (ppy_print.h). */
#include "ppy_print.h"

#include "ppy_str.h"

#ifndef PPY_RT_DECLARATIONS_ONLY

/** Python's repr of a float into `out` (at least 32 bytes), NUL-terminated;
 * answers the length. The shortest digits that read back as `v` (the closest
 * such digits when several are as short), laid out positionally when the
 * decimal exponent is in [-4, 16) and as `1e+16` / `1e-05` otherwise. */
PPY_RT_API int ppy_format_f64(double v, char* out) {
  if (isnan(v) || isinf(v)) {
    const char* word = isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
    strcpy(out, word);
    return (int)strlen(word);
  }
  int neg = signbit(v) != 0;
  double a = neg ? -v : v;
  /* The mantissa m (an integer without trailing zeros) and scale s: a = m * 10^s. */
  uint64_t m = 0;
  int s = 0;
  if (a == 0) {
    m = 0;
    s = 0;
  } else {
    char buf[48];
    for (int p = 1; p <= 17; ++p) {
      snprintf(buf, sizeof buf, "%.*e", p - 1, a);
      char* e = strchr(buf, 'e');
      uint64_t digits = 0;
      for (char* c = buf; c < e; ++c)
        if (*c >= '0' && *c <= '9') digits = digits * 10 + (uint64_t)(*c - '0');
      int scale = atoi(e + 1) - (p - 1);
      if (strtod(buf, NULL) == a) {
        m = digits;
        s = scale;
        break;
      }
      /* The nearest p digits may miss while a neighbour reads back (the
       * rounding interval is lopsided at a power of two). */
      int found = 0;
      for (int d = -1; d <= 1 && !found; d += 2) {
        uint64_t cand = digits + (uint64_t)(int64_t)d;
        if (cand == 0) continue;
        char tmp[48];
        snprintf(tmp, sizeof tmp, "%llue%d", (unsigned long long)cand, scale);
        if (strtod(tmp, NULL) == a) {
          m = cand;
          s = scale;
          found = 1;
        }
      }
      if (found) break;
    }
    while (m != 0 && m % 10 == 0) {
      m /= 10;
      ++s;
    }
  }
  char digits[24];
  int nd = snprintf(digits, sizeof digits, "%llu", (unsigned long long)m);
  int exp10 = s + nd - 1;
  int decpt = exp10 + 1; /* a = 0.DIGITS * 10^decpt */
  char* o = out;
  if (neg) *o++ = '-';
  if (decpt > 16 || decpt < -3) {
    *o++ = digits[0];
    if (nd > 1) {
      *o++ = '.';
      memcpy(o, digits + 1, (size_t)(nd - 1));
      o += nd - 1;
    }
    o += sprintf(o, "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
  } else if (decpt <= 0) {
    *o++ = '0';
    *o++ = '.';
    for (int i = 0; i < -decpt; ++i) *o++ = '0';
    memcpy(o, digits, (size_t)nd);
    o += nd;
  } else if (decpt >= nd) {
    memcpy(o, digits, (size_t)nd);
    o += nd;
    for (int i = nd; i < decpt; ++i) *o++ = '0';
    *o++ = '.';
    *o++ = '0';
  } else {
    memcpy(o, digits, (size_t)decpt);
    o += decpt;
    *o++ = '.';
    memcpy(o, digits + decpt, (size_t)(nd - decpt));
    o += nd - decpt;
  }
  *o = '\0';
  return (int)(o - out);
}

PPY_RT_API void ppy_print_i64(int64_t v) {
  char buf[24];
  int n = snprintf(buf, sizeof buf, "%lld", (long long)v);
  ppy_rt_write(buf, (size_t)n);
}

PPY_RT_API void ppy_print_f64(double v) {
  char buf[40];
  int n = ppy_format_f64(v, buf);
  ppy_rt_write(buf, (size_t)n);
}

/** `True` / `False`; any non-zero is true. */
PPY_RT_API void ppy_print_bool(int32_t v) {
  if (v)
    ppy_rt_write("True", 4);
  else
    ppy_rt_write("False", 5);
}

/** A string literal's bytes (it may hold NULs, hence the length). */
PPY_RT_API void ppy_print_str(const char* s, int64_t n) { ppy_rt_write(s, (size_t)n); }
PPY_RT_API void ppy_print_space(void) { ppy_rt_write(" ", 1); }
PPY_RT_API void ppy_print_newline(void) { ppy_rt_write("\n", 1); }

#ifdef PPY_RT_STRINGS

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
  int sign_given;           /* a sign was written (a string refuses it) */
  int trailing;             /* characters after the type: Python's "Invalid format specifier" */
} ppy_spec;

/** A width or precision's next digit: Python's ValueError past Py_ssize_t
 * (and never a signed overflow here). */
static int64_t ppy_spec_digit(int64_t v, char d) {
  if (v > (INT64_MAX - (d - '0')) / 10) ppy_rt_raise("ValueError", "Too many decimal digits in format string");
  return v * 10 + (d - '0');
}

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
  if (i < n && (b[i] == '+' || b[i] == '-' || b[i] == ' ')) {
    sp.sign = b[i++];
    sp.sign_given = 1;
  }
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
    while (i < n && b[i] >= '0' && b[i] <= '9') sp.width = ppy_spec_digit(sp.width, b[i++]);
  }
  if (i < n && (b[i] == ',' || b[i] == '_')) sp.grouping = b[i++];
  if (i < n && b[i] == '.') {
    ++i;
    sp.precision = 0;
    if (i >= n || b[i] < '0' || b[i] > '9') ppy_rt_raise("ValueError", "Format specifier missing precision");
    while (i < n && b[i] >= '0' && b[i] <= '9') sp.precision = ppy_spec_digit(sp.precision, b[i++]);
  }
  if (i < n) sp.type = b[i];
  sp.trailing = i + 1 < n;
  if (sp.zero && !sp.align) {
    sp.fill[0] = '0';
    sp.fill_len = 1;
    sp.align = '=';
  }
  return sp;
}

/** Python's ValueError for a spec the type does not take: a code not in
 * `codes`, characters after the code. (A spec made at run time, `format(v,
 * spec)` or a nested field, is checked only here.) */
static void ppy_spec_check(const ppy_spec* sp, const ppy_str* spec, const char* codes, const char* type_name) {
  char msg[160];
  if (sp->trailing) {
    snprintf(msg, sizeof msg, "Invalid format specifier '%.*s' for object of type '%s'",
             (int)(spec->len > 100 ? 100 : spec->len), PPY_STR_BYTES(spec), type_name);
    ppy_raise_copied("ValueError", msg);
  }
  if (sp->type && !strchr(codes, sp->type)) {
    if ((unsigned char)sp->type < 0x80 && (unsigned char)sp->type >= 0x20)
      snprintf(msg, sizeof msg, "Unknown format code '%c' for object of type '%s'", sp->type, type_name);
    else
      snprintf(msg, sizeof msg, "Unknown format code '\\x%x' for object of type '%s'", (unsigned char)sp->type,
               type_name);
    ppy_raise_copied("ValueError", msg);
  }
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
  ppy_spec_check(&sp, spec, "bcdnoxX", "int");
  if (sp.precision >= 0) ppy_rt_raise("ValueError", "Precision not allowed in integer format specifier");
  if (((sp.type == 'c' || sp.type == 'n') && sp.grouping) ||
      (sp.grouping == ',' && (sp.type == 'b' || sp.type == 'o' || sp.type == 'x' || sp.type == 'X'))) {
    char msg[40];
    snprintf(msg, sizeof msg, "Cannot specify '%c' with '%c'.", sp.grouping, sp.type);
    ppy_raise_copied("ValueError", msg);
  }
  if (sp.type == 'c') { /* the code point, padded as a number is */
    if (sp.sign_given) ppy_rt_raise("ValueError", "Sign not allowed with integer format specifier 'c'");
    if (sp.alt) ppy_rt_raise("ValueError", "Alternate form (#) not allowed with integer format specifier 'c'");
    if (v < 0 || v > 0x10FFFF) ppy_rt_raise("OverflowError", "%c arg not in range(0x110000)");
    const ppy_str* ch = ppy_str_chr(v);
    return ppy_pad(&sp, "", PPY_STR_BYTES(ch), ch->len, 1, '>');
  }
  int base = sp.type == 'b' ? 2 : sp.type == 'o' ? 8 : (sp.type == 'x' || sp.type == 'X') ? 16 : 10;
  char digits[72];
  int nd = ppy_radix_digits(v, sp.type, digits);
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

/** `%.<prec>f` of a finite `a` in [0, 2**63) with prec <= 9, written into `out`
 * (at least 32 bytes): its length. Exact, as printf and Python round: the
 * binary value times 10**prec, rounded half to even (issue 35: printf's
 * multi-precision path was a third of an f-string line's time). */
static int ppy_fixed_f(double a, int prec, char* out) {
  int ex;
  double f = frexp(a, &ex); /* a = f * 2**ex, f in [0.5, 1) */
  unsigned __int128 scale = 1;
  for (int i = 0; i < prec; ++i) scale *= 10;
  unsigned __int128 n = (unsigned __int128)(uint64_t)ldexp(f, 53) * scale, q;
  int e = ex - 53;
  if (a == 0) {
    q = 0;
  } else if (e >= 0) {
    q = n << e;
  } else if (-e >= 120) {
    q = 0; /* below 2**-37 before the scale: it rounds to 0 */
  } else {
    int sh = -e;
    q = n >> sh;
    unsigned __int128 r = n - (q << sh), half = (unsigned __int128)1 << (sh - 1);
    if (r > half || (r == half && (q & 1))) ++q;
  }
  char digits[48];
  int nd = 0;
  /* typical: a 64-bit quotient's digits by 64-bit division (a multiply), the
   * 128-bit one's by the library's division, two calls a digit (most of an
   * f-string's `{x:.2f}`) */
  for (; q > UINT64_MAX; q /= 10) digits[nd++] = (char)('0' + (int)(q % 10));
  uint64_t u = (uint64_t)q;
  do {
    digits[nd++] = (char)('0' + (int)(u % 10));
    u /= 10;
  } while (u);
  while (nd <= prec) digits[nd++] = '0'; /* at least one digit before the point */
  int len = 0;
  for (int i = nd - 1; i >= prec; --i) out[len++] = digits[i];
  if (prec) out[len++] = '.';
  for (int i = prec - 1; i >= 0; --i) out[len++] = digits[i];
  out[len] = '\0';
  return len;
}

/** `format(v, spec)` of a float: types f, F, e, E, g, G, %, or none (repr;
 * with a precision, `g` that keeps a point). */
PPY_RT_API ppy_str* ppy_str_format_f64(double v, const ppy_str* spec) {
  ppy_spec sp = ppy_spec_parse(spec);
  ppy_spec_check(&sp, spec, "eEfFgGn%", "float");
  if (sp.type == 'n' && sp.grouping) ppy_raise_copied("ValueError", sp.grouping == ',' ? "Cannot specify ',' with 'n'." : "Cannot specify '_' with 'n'.");
  if (sp.type == 'n') sp.type = 'g'; /* the C locale's 'n' */
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
  char fixed[48];
  if ((t == 'f' || t == 'F') && !sp.alt && prec <= 9 && isfinite(a) && a < 9.2e18) {
    ppy_fixed_f(a, prec < 0 ? 6 : (int)prec, fixed);
    num = fixed;
  } else if (none && prec < 0) {
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
  ppy_spec_check(&sp, spec, "s", "str");
  if (sp.sign_given) ppy_rt_raise("ValueError", "Sign not allowed in string format specifier");
  if (sp.alt) ppy_rt_raise("ValueError", "Alternate form (#) not allowed in string format specifier");
  if (sp.align == '=') ppy_rt_raise("ValueError", "'=' alignment not allowed in string format specifier");
  if (sp.grouping) {
    char msg[40];
    snprintf(msg, sizeof msg, "Cannot specify '%c' with 's'.", sp.grouping);
    ppy_raise_copied("ValueError", msg);
  }
  int64_t ncp = s->ncp, nbytes = s->len;
  if (sp.precision >= 0 && sp.precision < ncp) {
    nbytes = ppy_str_offset(s, sp.precision);
    ncp = sp.precision;
  }
  return ppy_pad(&sp, "", PPY_STR_BYTES(s), nbytes, ncp, '<');
}

/* ------------------------------------------------------------------------ */
/* speedsort: text built in place. A builder is a str whose `len` is the bytes
 * written so far and whose `ncp` is, until ppy_fmt_end, its room: an f-string
 * is one allocation, with no str per piece and no copy per concatenation.
 * The room's bit PPY_FMT_WIDE says a piece with a code point past ASCII went
 * in: without it ppy_fmt_end takes the bytes as the code points and counts
 * nothing (issue 35: the count was a twentieth of raising an exception whose
 * message is an f-string). */
#define PPY_FMT_WIDE ((int64_t)1 << 62)

static inline int64_t ppy_fmt_cap(const ppy_str* b) { return b->ncp & ~PPY_FMT_WIDE; }

/** Marks `b` as holding text past ASCII where `s` (just appended) has some. */
static inline ppy_str* ppy_fmt_saw(ppy_str* b, const ppy_str* s) {
  if (s->ncp != s->len) b->ncp |= PPY_FMT_WIDE;
  return b;
}

/** `b` grown to room for `more` bytes after its text: a copy twice as large. */
static ppy_str* ppy_fmt_grow(ppy_str* b, int64_t more) {
  int64_t cap = ppy_fmt_cap(b);
  int64_t room = cap * 2 > b->len + more ? cap * 2 : b->len + more;
  ppy_str* g = ppy_str_alloc(room, room);
  memcpy(PPY_STR_BYTES(g), PPY_STR_BYTES(b), (size_t)b->len);
  g->len = b->len;
  g->ncp |= b->ncp & PPY_FMT_WIDE;
  return g;
}

/** `b` with room for `more` bytes after its text: itself (inline: an f-string's
 * first guess of its length is mostly right), or ppy_fmt_grow's copy. */
static inline ppy_str* ppy_fmt_room(ppy_str* b, int64_t more) {
  return PPY_RT_UNLIKELY(b->len + more > ppy_fmt_cap(b)) ? ppy_fmt_grow(b, more) : b;
}

/** Copies `n` bytes, a piece of an f-string: the short ones (its literal
 * parts, a name, a number: issue 32's exception messages) by two overlapping
 * words, not a call to memcpy for each. */
static inline void ppy_fmt_copy(char* o, const char* s, int64_t n) {
  if (n > 16) {
    memcpy(o, s, (size_t)n);
  } else if (n >= 8) {
    uint64_t a, z;
    memcpy(&a, s, 8);
    memcpy(&z, s + n - 8, 8);
    memcpy(o, &a, 8);
    memcpy(o + n - 8, &z, 8);
  } else if (n >= 4) {
    uint32_t a, z;
    memcpy(&a, s, 4);
    memcpy(&z, s + n - 4, 4);
    memcpy(o, &a, 4);
    memcpy(o + n - 4, &z, 4);
  } else if (n > 0) {
    o[0] = s[0];
    o[n / 2] = s[n / 2];
    o[n - 1] = s[n - 1];
  }
}

static ppy_str* ppy_fmt_bytes(ppy_str* b, const char* s, int64_t n) {
  b = ppy_fmt_room(b, n);
  ppy_fmt_copy(PPY_STR_BYTES(b) + b->len, s, n);
  b->len += n;
  return b;
}

PPY_RT_API ppy_str* ppy_fmt_new(int64_t room) {
  if (room < 16) room = 16;
  ppy_str* b = ppy_str_alloc(room, room);
  b->len = 0;
  return b;
}

PPY_RT_API ppy_str* ppy_fmt_str(ppy_str* b, const ppy_str* s) {
  return ppy_fmt_saw(ppy_fmt_bytes(b, PPY_STR_BYTES(s), s->len), s);
}

/** `s * n` appended: no str made for it. */
PPY_RT_API ppy_str* ppy_fmt_repeat(ppy_str* b, const ppy_str* s, int64_t n) {
  if (n <= 0 || s->len == 0) return b;
  int64_t total;
  if (__builtin_mul_overflow(s->len, n, &total)) ppy_rt_raise("MemoryError", "");
  b = ppy_fmt_room(b, total);
  char* o = PPY_STR_BYTES(b) + b->len;
  if (s->len == 1)
    memset(o, PPY_STR_BYTES(s)[0], (size_t)n);
  else
    for (int64_t k = 0; k < n; ++k) memcpy(o + k * s->len, PPY_STR_BYTES(s), (size_t)s->len);
  b->len += total;
  return ppy_fmt_saw(b, s);
}

/** The width of a spec that is only a width, then `type` (or nothing where `type` is 0):
 * `6d`, `d`, ``; -1 for anything else (a fill, an alignment, a sign, a zero, a grouping). */
static int64_t ppy_fmt_plain_width(const ppy_str* spec, char type, int64_t* precision) {
  const char* s = PPY_STR_BYTES(spec);
  int64_t n = spec->len, i = 0, w = 0;
  if (n > 0 && s[0] == '0') return -1;
  for (; i < n && s[i] >= '0' && s[i] <= '9' && w < 100000; ++i) w = w * 10 + (s[i] - '0');
  if (precision) {
    if (i >= n || s[i] != '.') return -1;
    int64_t p = 0, at = ++i;
    for (; i < n && s[i] >= '0' && s[i] <= '9' && p < 100; ++i) p = p * 10 + (s[i] - '0');
    if (i == at) return -1;
    *precision = p;
  }
  if (i == n && !precision) return w;
  return i + 1 == n && s[i] == type ? w : -1;
}

/** `sign` then `body` appended, right-aligned to `width` by spaces. */
static ppy_str* ppy_fmt_number(ppy_str* b, int neg, const char* body, int64_t nb, int64_t width) {
  int64_t pad = width > nb + neg ? width - nb - neg : 0;
  b = ppy_fmt_room(b, pad + neg + nb);
  char* o = PPY_STR_BYTES(b) + b->len;
  memset(o, ' ', (size_t)pad);
  o += pad;
  if (neg) *o++ = '-';
  ppy_fmt_copy(o, body, nb);
  b->len += pad + neg + nb;
  return b;
}

/** `format(v, spec)` appended: a width and `d` (or nothing) written here, the rest as ppy_str_format_i64. */
PPY_RT_API ppy_str* ppy_fmt_i64(ppy_str* b, int64_t v, const ppy_str* spec) {
  int64_t width = spec->len == 0 ? 0 : ppy_fmt_plain_width(spec, 'd', NULL); /* `{n}`: no spec to read */
  if (width < 0) return ppy_fmt_str(b, ppy_str_format_i64(v, spec));
  char buf[24];
  int at = ppy_decimal_digits(v, buf);
  return ppy_fmt_number(b, v < 0, buf + at, (int64_t)sizeof buf - at, width);
}

/** `format(v, spec)` appended: a width and `.Nf` (N up to 9) written here, the rest as ppy_str_format_f64. */
PPY_RT_API ppy_str* ppy_fmt_f64(ppy_str* b, double v, const ppy_str* spec) {
  int64_t prec = -1;
  int64_t width = ppy_fmt_plain_width(spec, 'f', &prec);
  double a = fabs(v);
  if (width < 0 || prec > 9 || !isfinite(v) || a >= 9.2e18) return ppy_fmt_str(b, ppy_str_format_f64(v, spec));
  char fixed[48];
  int n = ppy_fixed_f(a, (int)prec, fixed);
  return ppy_fmt_number(b, signbit(v) != 0, fixed, n, width);
}

/** The finished str: its code points counted, its room given up where much is left. */
PPY_RT_API ppy_str* ppy_fmt_end(ppy_str* b) {
  const char* p = PPY_STR_BYTES(b);
  int64_t ncp = b->ncp & PPY_FMT_WIDE ? ppy_utf8_count(p, b->len) : b->len;
  if (ppy_fmt_cap(b) > 2 * b->len + 64) {
    ppy_str* r = ppy_str_alloc(b->len, ncp);
    memcpy(PPY_STR_BYTES(r), p, (size_t)b->len);
    return r;
  }
  b->ncp = ncp;
  PPY_STR_BYTES(b)[b->len] = '\0';
  return b;
}

#endif /* PPY_RT_STRINGS */

#endif /* PPY_RT_DECLARATIONS_ONLY */
