/* ppy_runtime.h: the native runtime of ppy programs (docs/runtime.md).
 *
 * One self-contained C11 header (libc and libm only) that every native backend
 * shares: the LLVM road links it as a static library (ppy_runtime.c defines
 * PPY_RT_API empty, so the functions have external linkage), and the C backend
 * pastes this text into the C it writes (the functions stay `static`).
 *
 * What it gives, byte for byte as the reference interpreter does:
 *   - print of i64, f64 (Python's repr of a float), bool and string literals,
 *     buffered, flushed at exit and before any error;
 *   - the list header (its functions are ppy_str.h's: lists live on the collector);
 *   - ppy_pow_i64, Python's floor division and modulo of ints and floats;
 *   - raising: `<Name>: <message>` on stderr after stdout is flushed, then exit
 *     status 1 (or a jump back to ppy_rt_run when a program runs in-process).
 */
#ifndef PPY_RUNTIME_H
#define PPY_RUNTIME_H

#include <math.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PPY_RT_API
#if defined(__GNUC__)
#define PPY_RT_API static __attribute__((unused))
#else
#define PPY_RT_API static
#endif
#endif

/* Data compiled code reads directly: static like the functions, unless the
 * library makes it external. */
#ifndef PPY_RT_DATA
#define PPY_RT_DATA static
#endif

#if defined(__GNUC__)
#define PPY_RT_NORETURN __attribute__((noreturn, cold))
#define PPY_RT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#elif defined(__cplusplus)
#define PPY_RT_NORETURN [[noreturn]]
#define PPY_RT_UNLIKELY(x) (x)
#else
#define PPY_RT_NORETURN _Noreturn
#define PPY_RT_UNLIKELY(x) (x)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* The API. With PPY_RT_DECLARATIONS_ONLY (and PPY_RT_API defined `extern`)
 * this header only declares it, for code that links the static library.     */

/** Where output goes: `write(ctx, bytes, n)`; NULL writes to stdout/stderr. */
typedef void (*ppy_rt_write_fn)(void* ctx, const char* bytes, size_t n);

/** A list (a `buffer<T>` on the IR): a handle to its length, capacity and
 * elements, 8 bytes each (i64, f64, a bool as i64 0 or 1, a pointer: a str or
 * a list). The handle never moves; the elements move when the list grows.
 * Lists live on the collector (ppy_str.h, docs/runtime.md "Lists"). */
typedef struct ppy_list {
  int64_t len;
  int64_t cap;
  void* data;
  int64_t scanned; /* 1: the elements are handles the collector must see */
} ppy_list;

#define PPY_LIST_I64(l) ((int64_t*)(l)->data)
#define PPY_LIST_F64(l) ((double*)(l)->data)

/** Calls of recursive functions under way: compiled code counts it inline at
 * each entry and restores it at each return; past the limit (1000, Python's)
 * it raises RecursionError. */
#ifdef PPY_RT_DECLARATIONS_ONLY
extern int64_t ppy_rt_depth;
#endif

PPY_RT_API void ppy_rt_flush(void);
PPY_RT_API void ppy_rt_set_output(ppy_rt_write_fn out, ppy_rt_write_fn err, void* ctx);
/** Called by every raise before anything else when set: an embedder that
 * runs runtime functions itself (the interpreter) turns it into its own
 * exception (it must not return). */
typedef void (*ppy_rt_raise_fn)(const char* name, const char* message);
PPY_RT_API void ppy_rt_set_raise_hook(ppy_rt_raise_fn hook);
PPY_RT_API PPY_RT_NORETURN void ppy_rt_raise(const char* name, const char* message);
PPY_RT_API PPY_RT_NORETURN void ppy_rt_overflow(void);
PPY_RT_API int ppy_rt_run(void (*entry)(void));
PPY_RT_API int ppy_rt_call(void (*fn)(void* arg), void* arg);
PPY_RT_API int64_t ppy_rt_try(void (*fn)(void* arg), void* arg);
PPY_RT_API void ppy_rt_last_error(const char** name, const char** message);
PPY_RT_API void ppy_rt_set_recursion_limit(int64_t limit);
PPY_RT_API void ppy_rt_enter(void);
PPY_RT_API void ppy_rt_leave(void);
PPY_RT_API int ppy_format_f64(double v, char* out);
PPY_RT_API void ppy_print_i64(int64_t v);
PPY_RT_API void ppy_print_f64(double v);
PPY_RT_API void ppy_print_bool(int32_t v);
PPY_RT_API void ppy_print_str(const char* s, int64_t n);
PPY_RT_API void ppy_print_space(void);
PPY_RT_API void ppy_print_newline(void);
PPY_RT_API int64_t ppy_list_len(const ppy_list* l);
PPY_RT_API void ppy_list_check(const ppy_list* l, int64_t i, int32_t store);
PPY_RT_API int64_t ppy_pow_i64(int64_t base, int64_t exp);
PPY_RT_API int64_t ppy_int_floordiv(int64_t a, int64_t b);
PPY_RT_API int64_t ppy_int_floormod(int64_t a, int64_t b);
PPY_RT_API double ppy_float_floormod(double a, double b);
PPY_RT_API double ppy_float_floordiv(double a, double b);
PPY_RT_API int64_t ppy_float_to_i64(double v);

/** Every function compiled code may call, for a JIT's symbol table: X(name). */
#define PPY_RT_SYMBOLS(X)                                                                            \
  X(ppy_rt_flush) X(ppy_rt_raise) X(ppy_rt_overflow) X(ppy_rt_run) X(ppy_rt_call) X(ppy_rt_try)     \
  X(ppy_rt_enter)                                                                                  \
  X(ppy_rt_leave) X(ppy_print_i64) X(ppy_print_f64) X(ppy_print_bool) X(ppy_print_str)             \
  X(ppy_print_space) X(ppy_print_newline) X(ppy_list_len) X(ppy_list_check) X(ppy_pow_i64)         \
  X(ppy_int_floordiv) X(ppy_int_floormod) X(ppy_float_floormod) X(ppy_float_floordiv)              \
  X(ppy_float_to_i64) X(ppy_rt_depth)

#ifndef PPY_RT_DECLARATIONS_ONLY

/* ------------------------------------------------------------------------ */
/* Output                                                                    */

PPY_RT_DATA int64_t ppy_rt_depth;

static struct {
  char buf[1 << 16];
  size_t len;
  ppy_rt_write_fn out, err;
  void* ctx;
  int atexit_done;
  jmp_buf* trap; /* armed by ppy_rt_run: a raise jumps there instead of exiting */
  int quiet;     /* ppy_rt_call: the caller reports the exception, not stderr */
  const char* error_name; /* the last raise, for ppy_rt_last_error */
  const char* error_message;
  int64_t recursion_limit; /* 0: Python's default, 1000 */
  ppy_rt_raise_fn raise_hook; /* ppy_rt_set_raise_hook */
} ppy_rt_state; /* zero-initialized: recursion_limit 0 means 1000 */

PPY_RT_API void ppy_rt_flush(void) {
  if (ppy_rt_state.len == 0) return;
  if (ppy_rt_state.out) {
    ppy_rt_state.out(ppy_rt_state.ctx, ppy_rt_state.buf, ppy_rt_state.len);
  } else {
    fwrite(ppy_rt_state.buf, 1, ppy_rt_state.len, stdout);
    fflush(stdout);
  }
  ppy_rt_state.len = 0;
}

static void ppy_rt_flush_at_exit(void) { ppy_rt_flush(); }

/** Sends output to `out` and error text to `err` (NULL: stdout / stderr). */
PPY_RT_API void ppy_rt_set_output(ppy_rt_write_fn out, ppy_rt_write_fn err, void* ctx) {
  ppy_rt_flush();
  ppy_rt_state.out = out;
  ppy_rt_state.err = err;
  ppy_rt_state.ctx = ctx;
}

static void ppy_rt_write(const char* s, size_t n) {
  if (PPY_RT_UNLIKELY(!ppy_rt_state.atexit_done)) {
    ppy_rt_state.atexit_done = 1;
    atexit(ppy_rt_flush_at_exit);
  }
  if (n > sizeof ppy_rt_state.buf - ppy_rt_state.len) {
    ppy_rt_flush();
    if (n > sizeof ppy_rt_state.buf) {
      if (ppy_rt_state.out)
        ppy_rt_state.out(ppy_rt_state.ctx, s, n);
      else
        fwrite(s, 1, n, stdout);
      return;
    }
  }
  memcpy(ppy_rt_state.buf + ppy_rt_state.len, s, n);
  ppy_rt_state.len += n;
}

static void ppy_rt_write_err(const char* s, size_t n) {
  if (ppy_rt_state.err)
    ppy_rt_state.err(ppy_rt_state.ctx, s, n);
  else
    fwrite(s, 1, n, stderr);
}

/* ------------------------------------------------------------------------ */
/* Raising                                                                   */

/** Ends the program as an uncaught Python exception: stdout flushed, then
 * `<name>: <message>` (just `<name>` for an empty message) on stderr, exit 1. */
PPY_RT_API void ppy_rt_set_raise_hook(ppy_rt_raise_fn hook) { ppy_rt_state.raise_hook = hook; }

PPY_RT_API PPY_RT_NORETURN void ppy_rt_raise(const char* name, const char* message) {
  if (ppy_rt_state.raise_hook) ppy_rt_state.raise_hook(name, message);
  ppy_rt_flush();
  if (!ppy_rt_state.err) fflush(stdout);
  if (!ppy_rt_state.quiet) {
    ppy_rt_write_err(name, strlen(name));
    if (message && message[0]) {
      ppy_rt_write_err(": ", 2);
      ppy_rt_write_err(message, strlen(message));
    }
    ppy_rt_write_err("\n", 1);
  }
  ppy_rt_state.error_name = name;
  ppy_rt_state.error_message = message ? message : "";
  if (ppy_rt_state.trap) longjmp(*ppy_rt_state.trap, 1);
  exit(1);
}

PPY_RT_API PPY_RT_NORETURN void ppy_rt_overflow(void) { ppy_rt_raise("OverflowError", "integer overflow"); }

/** Runs `entry` (a program's main) and answers its exit status: 0, or 1 when
 * it raised. Output is flushed and every list freed either way. */
PPY_RT_API int ppy_rt_run(void (*entry)(void)) {
  jmp_buf trap;
  jmp_buf* saved = ppy_rt_state.trap;
  volatile int status = 0;
  ppy_rt_state.trap = &trap;
  ppy_rt_depth = 0;
  if (setjmp(trap) == 0)
    entry();
  else
    status = 1;
  ppy_rt_state.trap = saved;
  ppy_rt_depth = 0;
  ppy_rt_flush();
  return status;
}

/** RecursionError past `limit` nested calls of recursive functions. */
PPY_RT_API void ppy_rt_set_recursion_limit(int64_t limit) { ppy_rt_state.recursion_limit = limit; }

/** A `core.call {capture_status = true}` (a try body, docs/runtime.md
 * "Exceptions"): runs `fn(arg)` and answers 0, or 1 when it raised, with
 * nothing printed (ppy_rt_last_error says what). The setjmp is here, in the
 * runtime: compiled code sees an ordinary call that returns. */
PPY_RT_API int64_t ppy_rt_try(void (*fn)(void* arg), void* arg) {
  jmp_buf trap;
  jmp_buf* saved = ppy_rt_state.trap;
  int64_t depth = ppy_rt_depth;
  int quiet = ppy_rt_state.quiet;
  volatile int64_t status = 0;
  ppy_rt_state.trap = &trap;
  ppy_rt_state.quiet = 1;
  if (setjmp(trap) == 0)
    fn(arg);
  else
    status = 1;
  ppy_rt_state.trap = saved;
  ppy_rt_state.quiet = quiet;
  ppy_rt_depth = depth;
  return status;
}

/** Calls `fn(arg)` from foreign code (a C program, a Python extension):
 * answers 0, or 1 when it raised (ppy_rt_last_error says what, and nothing is
 * printed: the caller reports it); output flushed. */
PPY_RT_API int ppy_rt_call(void (*fn)(void* arg), void* arg) {
  int status = (int)ppy_rt_try(fn, arg);
  ppy_rt_flush();
  return status;
}

/** The exception the last raise named, and its message (static strings). */
PPY_RT_API void ppy_rt_last_error(const char** name, const char** message) {
  *name = ppy_rt_state.error_name ? ppy_rt_state.error_name : "";
  *message = ppy_rt_state.error_message ? ppy_rt_state.error_message : "";
}

/** Entering a function of a recursive cycle: RecursionError past the limit. */
PPY_RT_API void ppy_rt_enter(void) {
  int64_t limit = ppy_rt_state.recursion_limit ? ppy_rt_state.recursion_limit : 1000;
  if (PPY_RT_UNLIKELY(++ppy_rt_depth > limit)) {
    ppy_rt_depth = 0;
    ppy_rt_raise("RecursionError", "maximum recursion depth exceeded");
  }
}
/** Leaving it. */
PPY_RT_API void ppy_rt_leave(void) { --ppy_rt_depth; }

/* ------------------------------------------------------------------------ */
/* Printing                                                                  */

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

/* ------------------------------------------------------------------------ */
/* Lists                                                                     */

PPY_RT_API int64_t ppy_list_len(const ppy_list* l) { return l->len; }

/** The bounds check under every element access (IndexError); `store` picks
 * the assignment's wording. */
PPY_RT_API void ppy_list_check(const ppy_list* l, int64_t i, int32_t store) {
  if (PPY_RT_UNLIKELY((uint64_t)i >= (uint64_t)l->len))
    ppy_rt_raise("IndexError", store ? "list assignment index out of range" : "list index out of range");
}

/* ------------------------------------------------------------------------ */
/* Arithmetic                                                                */

/** `base ** exp` on i64: OverflowError when the result does not fit,
 * ValueError for a negative exponent (docs/runtime.md). */
PPY_RT_API int64_t ppy_pow_i64(int64_t base, int64_t exp) {
  if (exp < 0) ppy_rt_raise("ValueError", "negative exponent");
  int64_t result = 1;
  while (exp > 0) {
    if (exp & 1) {
      if (__builtin_mul_overflow(result, base, &result)) ppy_rt_overflow();
    }
    exp >>= 1;
    if (exp > 0 && __builtin_mul_overflow(base, base, &base)) ppy_rt_overflow();
  }
  return result;
}

/** Python's `a // b` on i64 (b != 0 is guarded before; checked again here):
 * OverflowError for INT64_MIN // -1. */
PPY_RT_API int64_t ppy_int_floordiv(int64_t a, int64_t b) {
  if (b == 0) ppy_rt_raise("ZeroDivisionError", "integer division or modulo by zero");
  if (b == -1) {
    if (a == INT64_MIN) ppy_rt_overflow();
    return -a;
  }
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

/** Python's `a % b` on i64: the result takes the divisor's sign. */
PPY_RT_API int64_t ppy_int_floormod(int64_t a, int64_t b) {
  if (b == 0) ppy_rt_raise("ZeroDivisionError", "integer modulo by zero");
  if (b == -1) return 0;
  int64_t m = a % b;
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}

/** Python's float `%` (the divisor's sign; NaN for b == 0). */
PPY_RT_API double ppy_float_floormod(double a, double b) {
  if (b == 0) return fmod(a, b);
  double mod = fmod(a, b);
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) mod += b;
  } else {
    mod = copysign(0.0, b);
  }
  return mod;
}

/** Python's float `//` (CPython's float_floor_div). */
PPY_RT_API double ppy_float_floordiv(double a, double b) {
  if (b == 0) return floor(a / b);
  double mod = fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1.0;
  if (div != 0) {
    double fl = floor(div);
    if (div - fl > 0.5) fl += 1.0;
    return fl;
  }
  return copysign(0.0, a / b);
}

/** `int(v)` of a float, toward zero: ValueError for NaN, OverflowError for an
 * infinity or a value outside i64. */
PPY_RT_API int64_t ppy_float_to_i64(double v) {
  if (isnan(v)) ppy_rt_raise("ValueError", "cannot convert float NaN to integer");
  if (isinf(v)) ppy_rt_raise("OverflowError", "cannot convert float infinity to integer");
  double t = trunc(v);
  if (t < -9223372036854775808.0 || t >= 9223372036854775808.0) ppy_rt_overflow();
  return (int64_t)t;
}

#endif /* PPY_RT_DECLARATIONS_ONLY */

#ifdef __cplusplus
}
#endif

#endif /* PPY_RUNTIME_H */
