/* ppy_vformat.c: templates formatted at run time (ppy_vformat.h), with
 * CPython's parse (Objects/stringlib/unicode_format.h for `str.format`,
 * PyUnicode_Format for `%`) and its exceptions. */
#include "ppy_vformat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ppy_print.h"
#include "ppy_str.h"

#ifdef PPY_RT_STRINGS

#include <gc.h>

/** One argument: its kind ('i' int, 'b' bool, 'f' float, 's' str, 'o' any
 * other value shown by its str and repr), its value, its keyword (NULL). */
typedef struct ppy_varg {
  char kind;
  int64_t i;
  double f;
  const ppy_str *s, *repr, *type;
  const ppy_str* name;
} ppy_varg;

typedef struct ppy_vfmt {
  const ppy_str* tmpl;
  ppy_varg* args;
  int64_t n, cap;
} ppy_vfmt;

PPY_RT_API ppy_str* ppy_vfmt_new(const ppy_str* tmpl) {
  ppy_vfmt* b = (ppy_vfmt*)GC_MALLOC(sizeof(ppy_vfmt));
  if (!b) ppy_rt_raise("MemoryError", "");
  b->tmpl = tmpl;
  return (ppy_str*)b;
}

static ppy_varg* ppy_vfmt_add(ppy_str* bv, const ppy_str* name, char kind) {
  ppy_vfmt* b = (ppy_vfmt*)bv;
  if (b->n == b->cap) {
    int64_t cap = b->cap ? b->cap * 2 : 4;
    ppy_varg* a = (ppy_varg*)GC_MALLOC((size_t)cap * sizeof(ppy_varg));
    if (!a) ppy_rt_raise("MemoryError", "");
    if (b->n) memcpy(a, b->args, (size_t)b->n * sizeof(ppy_varg));
    b->args = a;
    b->cap = cap;
  }
  ppy_varg* a = &b->args[b->n++];
  memset(a, 0, sizeof *a);
  a->kind = kind;
  a->name = name && name->len ? name : NULL;
  return a;
}

PPY_RT_API ppy_str* ppy_vfmt_i64(ppy_str* b, const ppy_str* name, int64_t v) {
  ppy_vfmt_add(b, name, 'i')->i = v;
  return (ppy_str*)b;
}
PPY_RT_API ppy_str* ppy_vfmt_bool(ppy_str* b, const ppy_str* name, int64_t v) {
  ppy_vfmt_add(b, name, 'b')->i = v != 0;
  return (ppy_str*)b;
}
PPY_RT_API ppy_str* ppy_vfmt_f64(ppy_str* b, const ppy_str* name, double v) {
  ppy_vfmt_add(b, name, 'f')->f = v;
  return (ppy_str*)b;
}
PPY_RT_API ppy_str* ppy_vfmt_str(ppy_str* b, const ppy_str* name, const ppy_str* v) {
  ppy_vfmt_add(b, name, 's')->s = v;
  return (ppy_str*)b;
}
PPY_RT_API ppy_str* ppy_vfmt_obj(ppy_str* b, const ppy_str* name, const ppy_str* str, const ppy_str* repr,
                              const ppy_str* type) {
  ppy_varg* a = ppy_vfmt_add(b, name, 'o');
  a->s = str;
  a->repr = repr;
  a->type = type;
  return (ppy_str*)b;
}

/* ------------------------------------------------------------------------ */

static const char* ppy_kind_name(const ppy_varg* a) {
  switch (a->kind) {
    case 'i': return "int";
    case 'b': return "bool";
    case 'f': return "float";
    case 's': return "str";
    default: return NULL;
  }
}

/** The type's name as a C string (in `buf` for an object's). */
static const char* ppy_arg_type(const ppy_varg* a, char* buf, size_t n) {
  const char* k = ppy_kind_name(a);
  if (k) return k;
  snprintf(buf, n, "%.*s", (int)(a->type->len > 60 ? 60 : a->type->len), PPY_STR_BYTES(a->type));
  return buf;
}

static const ppy_str* ppy_lit(const char* s) { return ppy_str_make(s, (int64_t)strlen(s)); }

/** str(a) and repr(a). */
static const ppy_str* ppy_arg_str(const ppy_varg* a, int repr) {
  switch (a->kind) {
    case 'i': return ppy_str_from_i64(a->i);
    case 'b': return ppy_lit(a->i ? "True" : "False");
    case 'f': return ppy_str_from_f64(a->f);
    case 's': return repr ? ppy_str_repr(a->s) : a->s;
    default: return repr ? a->repr : a->s;
  }
}

/** `format(a, spec)`. */
static const ppy_str* ppy_arg_format(const ppy_varg* a, const ppy_str* spec) {
  switch (a->kind) {
    case 'i': return ppy_str_format_i64(a->i, spec);
    case 'b': return spec->len ? ppy_str_format_i64(a->i, spec) : ppy_arg_str(a, 0);
    case 'f': return ppy_str_format_f64(a->f, spec);
    case 's': return ppy_str_format_str(a->s, spec);
    default: {
      if (!spec->len) return a->s;
      char t[64], msg[160];
      snprintf(msg, sizeof msg, "unsupported format string passed to %s.__format__", ppy_arg_type(a, t, sizeof t));
      ppy_raise_copied("TypeError", msg);
    }
  }
}

static const ppy_varg* ppy_find_name(const ppy_vfmt* b, const char* name, int64_t n) {
  for (int64_t k = 0; k < b->n; ++k) {
    const ppy_str* nm = b->args[k].name;
    if (nm && nm->len == n && memcmp(PPY_STR_BYTES(nm), name, (size_t)n) == 0) return &b->args[k];
  }
  return NULL;
}

/** KeyError of the key `name`: its repr is the message. */
static PPY_RT_NORETURN void ppy_key_error(const char* name, int64_t n) {
  const ppy_str* r = ppy_str_repr(ppy_str_make(name, n));
  char msg[200];
  snprintf(msg, sizeof msg, "%.*s", (int)(r->len > 190 ? 190 : r->len), PPY_STR_BYTES(r));
  ppy_raise_copied("KeyError", msg);
}

static int64_t ppy_positional(const ppy_vfmt* b) {
  int64_t n = 0;
  for (int64_t k = 0; k < b->n; ++k) n += b->args[k].name == NULL;
  return n;
}

static const ppy_varg* ppy_nth_positional(const ppy_vfmt* b, int64_t i) {
  for (int64_t k = 0; k < b->n; ++k)
    if (!b->args[k].name && i-- == 0) return &b->args[k];
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* str.format */

typedef struct ppy_brace {
  const ppy_vfmt* b;
  int64_t next_auto; /* -1 once a field was numbered by hand */
  int numbering;     /* 0 unknown, 1 automatic, 2 manual */
} ppy_brace;

static void ppy_brace_render(ppy_brace* st, const char* s, int64_t n, int depth, ppy_text* out);

/** The argument a field's first part picks: an index, a keyword, or the next one. */
static const ppy_varg* ppy_brace_root(ppy_brace* st, const char* name, int64_t n) {
  char msg[200];
  int64_t index = -1;
  if (n == 0) {
    if (st->numbering == 2)
      ppy_rt_raise("ValueError", "cannot switch from manual field specification to automatic field numbering");
    st->numbering = 1;
    index = st->next_auto++;
  } else {
    int digits = 1;
    for (int64_t k = 0; k < n; ++k) digits &= name[k] >= '0' && name[k] <= '9';
    if (!digits) {
      const ppy_varg* a = ppy_find_name(st->b, name, n);
      if (!a) ppy_key_error(name, n);
      return a;
    }
    if (st->numbering == 1)
      ppy_rt_raise("ValueError", "cannot switch from automatic field numbering to manual field specification");
    st->numbering = 2;
    index = 0;
    for (int64_t k = 0; k < n; ++k) {
      if (index > (INT64_MAX - 9) / 10) ppy_rt_raise("ValueError", "Too many decimal digits in format string");
      index = index * 10 + (name[k] - '0');
    }
  }
  const ppy_varg* a = ppy_nth_positional(st->b, index);
  if (!a) {
    snprintf(msg, sizeof msg, "Replacement index %lld out of range for positional args tuple", (long long)index);
    ppy_raise_copied("IndexError", msg);
  }
  return a;
}

/** The key of argument `a` in the names of what lowering handed over through it: its
 * keyword, or its index among the positional arguments. */
static void ppy_arg_key(const ppy_vfmt* b, const ppy_varg* a, ppy_text* path) {
  if (a->name) {
    ppy_text_add(path, PPY_STR_BYTES(a->name), (size_t)a->name->len);
    return;
  }
  int64_t index = 0;
  for (const ppy_varg* k = b->args; k < a; ++k) index += k->name == NULL;
  char buf[24];
  int len = snprintf(buf, sizeof buf, "%lld", (long long)index);
  ppy_text_add(path, buf, (size_t)len);
}

/** python3's error for a step `.name` / `[key]` (`index`: all digits) that `a` does not have;
 * what the subset does not reach (a list's element, a str's char, an int's attribute)
 * is NotImplementedError. */
static PPY_RT_NORETURN void ppy_reach_error(const ppy_varg* a, const char* step, int64_t n, int index,
                                            const char* field, int64_t fn) {
  char t[64], msg[240];
  const char* type = ppy_arg_type(a, t, sizeof t);
  int builtin = a->kind != 'o' || !strcmp(type, "list") || !strcmp(type, "dict") || !strcmp(type, "set");
  if (step[0] == '.' && !builtin) {
    snprintf(msg, sizeof msg, "'%s' object has no attribute '%.*s'", type, (int)(n > 80 ? 80 : n - 1), step + 1);
    ppy_raise_copied("AttributeError", msg);
  }
  if (step[0] == '[' && !strcmp(type, "tuple"))
    ppy_rt_raise(index ? "IndexError" : "TypeError",
                 index ? "tuple index out of range" : "tuple indices must be integers or slices, not str");
  if (step[0] == '[' && (a->kind == 'i' || a->kind == 'f' || a->kind == 'b' || !builtin || !strcmp(type, "set"))) {
    snprintf(msg, sizeof msg, "'%s' object is not subscriptable", type);
    ppy_raise_copied("TypeError", msg);
  }
  if (step[0] == '[' && !index && !strcmp(type, "list"))
    ppy_rt_raise("TypeError", "list indices must be integers or slices, not str");
  snprintf(msg, sizeof msg,
           "the field '%.*s' (an attribute or an index of %s %s) is outside the ppy subset (a field reaches an "
           "object's fields and a tuple's elements)",
           (int)(fn > 60 ? 60 : fn), field, type[0] == 'i' ? "an" : "a", type);
  ppy_raise_copied("NotImplementedError", msg);
}

/** The argument a field's name picks (CPython's get_field_object): its first part picks
 * an argument, then each `.name` / `[key]` step what lowering handed over through it
 * (issue 33: an object's fields, a tuple's elements) as the keyword `\x1f<path>`. */
static const ppy_varg* ppy_brace_arg(ppy_brace* st, const char* name, int64_t n) {
  int64_t first = 0;
  while (first < n && name[first] != '.' && name[first] != '[') ++first;
  const ppy_varg* a = ppy_brace_root(st, name, first);
  if (first == n) return a;
  ppy_text path = {NULL, 0, 0};
  ppy_text_add(&path, "\x1f", 1);
  ppy_arg_key(st->b, a, &path);
  int64_t i = first;
  while (i < n) {
    size_t at = path.n;
    int index = 0;
    if (name[i] == '.') {
      int64_t j = i + 1;
      while (j < n && name[j] != '.' && name[j] != '[') ++j;
      if (j == i + 1) ppy_rt_raise("ValueError", "Empty attribute in format string");
      ppy_text_add(&path, name + i, (size_t)(j - i));
      i = j;
    } else if (name[i] == '[') {
      int64_t j = i + 1;
      while (j < n && name[j] != ']') ++j;
      if (j == n) ppy_rt_raise("ValueError", "Missing ']' in format string");
      if (j == i + 1) ppy_rt_raise("ValueError", "Empty attribute in format string");
      index = 1;
      for (int64_t k = i + 1; k < j; ++k) index &= name[k] >= '0' && name[k] <= '9';
      ppy_text_add(&path, "[", 1);
      if (index) { /* `[01]` is the element 1, as python3 reads an all-digit key */
        int64_t k = i + 1;
        while (k + 1 < j && name[k] == '0') ++k;
        ppy_text_add(&path, name + k, (size_t)(j - k));
      } else {
        ppy_text_add(&path, name + i + 1, (size_t)(j - i - 1));
      }
      ppy_text_add(&path, "]", 1);
      i = j + 1;
      if (i < n && name[i] != '.' && name[i] != '[')
        ppy_rt_raise("ValueError", "Only '.' or '[' may follow ']' in format field specifier");
    } else {
      ppy_rt_raise("ValueError", "Only '.' or '[' may follow ']' in format field specifier");
    }
    const ppy_varg* sub = ppy_find_name(st->b, path.b, (int64_t)path.n);
    if (!sub) ppy_reach_error(a, path.b + at, (int64_t)(path.n - at), index, name, n);
    a = sub;
  }
  return a;
}

/** One field's body (between its braces). */
static void ppy_brace_field(ppy_brace* st, const char* f, int64_t n, int depth, ppy_text* out) {
  int64_t k = 0;
  while (k < n && f[k] != '!' && f[k] != ':') {
    if (f[k] == '[') { /* an index's brackets may hold ':' or '!' */
      while (k < n && f[k] != ']') ++k;
      if (k == n) break;
    }
    ++k;
  }
  const ppy_varg* a = ppy_brace_arg(st, f, k);
  char conv = 0;
  if (k < n && f[k] == '!') {
    if (k + 1 >= n) ppy_rt_raise("ValueError", "end of string while looking for conversion specifier");
    conv = f[k + 1];
    k += 2;
    if (k < n && f[k] != ':') ppy_rt_raise("ValueError", "expected ':' after conversion specifier");
  }
  const ppy_str* spec = ppy_lit("");
  if (k < n) { /* f[k] == ':' */
    ppy_text t = {NULL, 0, 0};
    ppy_brace_render(st, f + k + 1, n - k - 1, depth - 1, &t);
    spec = ppy_str_make(t.b ? t.b : "", (int64_t)t.n);
  }
  const ppy_str* r;
  if (conv == 0) {
    r = ppy_arg_format(a, spec);
  } else if (conv == 'r' || conv == 's' || conv == 'a') {
    r = ppy_str_format_str(ppy_arg_str(a, conv != 's'), spec);
  } else {
    char msg[80];
    if ((unsigned char)conv < 0x80)
      snprintf(msg, sizeof msg, "Unknown conversion specifier %c", conv);
    else
      snprintf(msg, sizeof msg, "Unknown conversion specifier \\x%x", (unsigned char)conv);
    ppy_raise_copied("ValueError", msg);
  }
  ppy_text_add(out, PPY_STR_BYTES(r), (size_t)r->len);
}

/** Renders `s` (a template, or a spec with nested fields at depth 1). */
static void ppy_brace_render(ppy_brace* st, const char* s, int64_t n, int depth, ppy_text* out) {
  if (depth <= 0) ppy_rt_raise("ValueError", "Max string recursion exceeded");
  int64_t i = 0;
  while (i < n) {
    char c = s[i];
    if (c != '{' && c != '}') {
      int64_t j = i;
      while (j < n && s[j] != '{' && s[j] != '}') ++j;
      ppy_text_add(out, s + i, (size_t)(j - i));
      i = j;
      continue;
    }
    if (i + 1 < n && s[i + 1] == c) { /* `{{` or `}}` */
      ppy_text_add(out, &c, 1);
      i += 2;
      continue;
    }
    if (c == '}') ppy_rt_raise("ValueError", "Single '}' encountered in format string");
    if (i + 1 >= n) ppy_rt_raise("ValueError", "Single '{' encountered in format string");
    int64_t start = ++i, nest = 1;
    for (; i < n; ++i) {
      if (s[i] == '{')
        ++nest;
      else if (s[i] == '}' && --nest == 0)
        break;
    }
    if (i >= n) ppy_rt_raise("ValueError", "expected '}' before end of string");
    /* a conversion must come right before ':' or the end ("unmatched '{'" otherwise) */
    int64_t len = i - start;
    const char* f = s + start;
    int64_t bang = -1;
    for (int64_t k = 0; k < len && f[k] != ':'; ++k)
      if (f[k] == '!') {
        bang = k;
        break;
      }
    if (bang >= 0 && bang + 1 == len) ppy_rt_raise("ValueError", "unmatched '{' in format spec");
    ppy_brace_field(st, f, len, depth, out);
    ++i;
  }
}

PPY_RT_API ppy_str* ppy_vfmt_format(ppy_str* bv) {
  const ppy_vfmt* b = (const ppy_vfmt*)bv;
  ppy_brace st = {b, 0, 0};
  ppy_text out = {NULL, 0, 0};
  ppy_brace_render(&st, PPY_STR_BYTES(b->tmpl), b->tmpl->len, 2, &out);
  return ppy_str_make(out.b ? out.b : "", (int64_t)out.n);
}

/* ------------------------------------------------------------------------ */
/* % */

/** An int's %-field: digits at least `prec` long, the sign and `0x` prefix,
 * padded to `width` (zeros after the prefix with `0`, left with `-`). */
static void ppy_pct_int(int64_t v, char type, int minus, int plus, int space, int alt, int zero, int64_t width,
                        int64_t prec, ppy_text* out) {
  int base = type == 'o' ? 8 : (type == 'x' || type == 'X') ? 16 : 10;
  char digits[72];
  int nd = ppy_radix_digits(v, type, digits);
  char prefix[4];
  int np = 0;
  if (v < 0)
    prefix[np++] = '-';
  else if (plus)
    prefix[np++] = '+';
  else if (space)
    prefix[np++] = ' ';
  if (alt && base != 10) {
    prefix[np++] = '0';
    prefix[np++] = type == 'o' ? 'o' : type;
  }
  int64_t body = nd > prec ? nd : prec;
  int64_t pad = width > np + body ? width - np - body : 0;
  if (!minus && !zero)
    for (int64_t k = 0; k < pad; ++k) ppy_text_add(out, " ", 1);
  ppy_text_add(out, prefix, (size_t)np);
  if (!minus && zero)
    for (int64_t k = 0; k < pad; ++k) ppy_text_add(out, "0", 1);
  for (int64_t k = nd; k < prec; ++k) ppy_text_add(out, "0", 1);
  ppy_text_add(out, digits, (size_t)nd);
  if (minus)
    for (int64_t k = 0; k < pad; ++k) ppy_text_add(out, " ", 1);
}

/** A str's %-field: `prec` code points of it, padded to `width`. */
static void ppy_pct_str(const ppy_str* s, int minus, int64_t width, int64_t prec, ppy_text* out) {
  int64_t ncp = s->ncp, nb = s->len;
  if (prec >= 0 && prec < ncp) {
    nb = ppy_str_offset(s, prec);
    ncp = prec;
  }
  int64_t pad = width > ncp ? width - ncp : 0;
  if (!minus)
    for (int64_t k = 0; k < pad; ++k) ppy_text_add(out, " ", 1);
  ppy_text_add(out, PPY_STR_BYTES(s), (size_t)nb);
  if (minus)
    for (int64_t k = 0; k < pad; ++k) ppy_text_add(out, " ", 1);
}

typedef struct ppy_pct {
  const ppy_vfmt* b;
  int64_t how, next;
} ppy_pct;

static const ppy_varg* ppy_pct_next(ppy_pct* st) {
  const ppy_varg* a = ppy_nth_positional(st->b, st->next++);
  if (!a) ppy_rt_raise("TypeError", "not enough arguments for format string");
  return a;
}

/** A `*` width or precision: the next argument, an int. */
static int64_t ppy_pct_star(ppy_pct* st) {
  const ppy_varg* a = ppy_pct_next(st);
  if (a->kind != 'i' && a->kind != 'b') ppy_rt_raise("TypeError", "* wants int");
  return a->i;
}

PPY_RT_API ppy_str* ppy_vfmt_percent(ppy_str* bv, int64_t how) {
  const ppy_vfmt* b = (const ppy_vfmt*)bv;
  ppy_pct st = {b, how, 0};
  const char* s = PPY_STR_BYTES(b->tmpl);
  int64_t n = b->tmpl->len, i = 0;
  ppy_text out = {NULL, 0, 0};
  char msg[200], tbuf[64];
  while (i < n) {
    if (s[i] != '%') {
      int64_t j = i;
      while (j < n && s[j] != '%') ++j;
      ppy_text_add(&out, s + i, (size_t)(j - i));
      i = j;
      continue;
    }
    ++i;
    const ppy_varg* a = NULL;
    if (i < n && s[i] == '(') {
      if (how != 2) ppy_rt_raise("TypeError", "format requires a mapping");
      int64_t start = ++i, nest = 1;
      for (; i < n; ++i) {
        if (s[i] == '(')
          ++nest;
        else if (s[i] == ')' && --nest == 0)
          break;
      }
      if (i >= n) ppy_rt_raise("ValueError", "incomplete format key");
      a = ppy_find_name(b, s + start, i - start);
      if (!a) ppy_key_error(s + start, i - start);
      ++i;
    }
    int minus = 0, plus = 0, space = 0, alt = 0, zero = 0;
    for (; i < n; ++i) {
      if (s[i] == '-')
        minus = 1;
      else if (s[i] == '+')
        plus = 1;
      else if (s[i] == ' ')
        space = 1;
      else if (s[i] == '#')
        alt = 1;
      else if (s[i] == '0')
        zero = 1;
      else
        break;
    }
    int64_t width = -1, prec = -1;
    if (i < n && s[i] == '*') {
      width = ppy_pct_star(&st);
      if (width < 0) {
        minus = 1;
        width = -width;
      }
      ++i;
    } else {
      while (i < n && s[i] >= '0' && s[i] <= '9') width = (width < 0 ? 0 : width) * 10 + (s[i++] - '0');
    }
    if (i < n && s[i] == '.') {
      ++i;
      prec = 0;
      if (i < n && s[i] == '*') {
        prec = ppy_pct_star(&st);
        if (prec < 0) prec = 0;
        ++i;
      } else {
        while (i < n && s[i] >= '0' && s[i] <= '9') prec = prec * 10 + (s[i++] - '0');
      }
    }
    while (i < n && (s[i] == 'h' || s[i] == 'l' || s[i] == 'L')) ++i;
    if (i >= n) ppy_rt_raise("ValueError", "incomplete format");
    char type = s[i++];
    if (type == '%') {
      ppy_text_add(&out, "%", 1);
      continue;
    }
    if (!strchr("sradiuxXoeEfFgGc", type)) {
      if ((unsigned char)type < 0x80)
        snprintf(msg, sizeof msg, "unsupported format character '%c' (0x%x) at index %lld", type,
                 (unsigned char)type, (long long)(i - 1));
      else
        snprintf(msg, sizeof msg, "unsupported format character (0x%x) at index %lld", (unsigned char)type,
                 (long long)(i - 1));
      ppy_raise_copied("ValueError", msg);
    }
    if (!a) a = ppy_pct_next(&st);
    const char* tn = ppy_arg_type(a, tbuf, sizeof tbuf);
    switch (type) {
      case 's':
      case 'r':
      case 'a':
        ppy_pct_str(ppy_arg_str(a, type != 's'), minus, width, prec, &out);
        break;
      case 'd':
      case 'i':
      case 'u':
      case 'x':
      case 'X':
      case 'o': {
        int64_t v;
        if (a->kind == 'i' || a->kind == 'b') {
          v = a->i;
        } else if (a->kind == 'f' && (type == 'd' || type == 'i' || type == 'u')) {
          if (isnan(a->f)) ppy_rt_raise("ValueError", "cannot convert float NaN to integer");
          if (isinf(a->f)) ppy_rt_raise("OverflowError", "cannot convert float infinity to integer");
          if (!(a->f > -9223372036854775808.0 && a->f < 9223372036854775808.0))
            ppy_rt_raise("OverflowError", "integer overflow");
          v = (int64_t)a->f;
        } else {
          if (type == 'd' || type == 'i' || type == 'u')
            snprintf(msg, sizeof msg, "%%%c format: a real number is required, not %s", type, tn);
          else
            snprintf(msg, sizeof msg, "%%%c format: an integer is required, not %s", type, tn);
          ppy_raise_copied("TypeError", msg);
        }
        ppy_pct_int(v, type == 'i' || type == 'u' ? 'd' : type, minus, plus, space, alt, zero, width,
                    prec < 0 ? 0 : prec, &out);
        break;
      }
      case 'c': {
        const ppy_str* r;
        if (a->kind == 'i' || a->kind == 'b') {
          if (a->i < 0 || a->i > 0x10FFFF) ppy_rt_raise("OverflowError", "%c arg not in range(0x110000)");
          r = ppy_str_chr(a->i);
        } else if (a->kind == 's' && a->s->ncp == 1) {
          r = a->s;
        } else {
          ppy_rt_raise("TypeError", "%c requires int or char");
        }
        ppy_pct_str(r, minus, width, -1, &out);
        break;
      }
      default: { /* e E f F g G */
        double v;
        if (a->kind == 'f')
          v = a->f;
        else if (a->kind == 'i' || a->kind == 'b')
          v = (double)a->i;
        else {
          snprintf(msg, sizeof msg, "must be real number, not %s", tn);
          ppy_raise_copied("TypeError", msg);
        }
        char spec[64], w[24] = "";
        if (width > 0) snprintf(w, sizeof w, "%lld", (long long)width);
        int len = snprintf(spec, sizeof spec, "%s%s%s%s%s.%lld%c", minus ? "<" : "", plus ? "+" : space ? " " : "",
                           alt ? "#" : "", zero && !minus && width > 0 ? "0" : "", w, (long long)(prec < 0 ? 6 : prec),
                           type);
        const ppy_str* r = ppy_str_format_f64(v, ppy_str_make(spec, len));
        ppy_text_add(&out, PPY_STR_BYTES(r), (size_t)r->len);
        break;
      }
    }
  }
  if (how != 2 && st.next < ppy_positional(b))
    ppy_rt_raise("TypeError", "not all arguments converted during string formatting");
  return ppy_str_make(out.b ? out.b : "", (int64_t)out.n);
}

#endif /* PPY_RT_STRINGS */
