/* ppy_runtime.c: the core of the native runtime (ppy_runtime.h): output
 * buffering, raising and try, recursion and arithmetic guards, the collector's
 * start. */
#include "ppy_runtime.h"
#include "ppy_trace.h"

#ifndef PPY_RT_DECLARATIONS_ONLY

/* ------------------------------------------------------------------------ */
/* Output                                                                    */

/* The trap a raise jumps back to (ppy_rt_run, ppy_rt_try). Where the compiler
 * has __builtin_setjmp it saves only the frame and stack pointers and where to
 * go on (the compiler keeps the setting function's callee-saved registers in
 * its frame), where setjmp saves, mangles and checks every register at each
 * `try` (issue 32: a loop's try runs at every iteration). AddressSanitizer
 * must see the jump (it unpoisons the stack it leaves): setjmp there. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PPY_RT_ASAN 1
#endif
#endif
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__TINYC__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(PPY_RT_ASAN)
typedef void* ppy_rt_trap[5];
#define PPY_RT_SET_TRAP(t) __builtin_setjmp(t)
#define PPY_RT_SPRING_TRAP(t) __builtin_longjmp(t, 1)
#else
typedef jmp_buf ppy_rt_trap;
#define PPY_RT_SET_TRAP(t) setjmp(t)
#define PPY_RT_SPRING_TRAP(t) longjmp(t, 1)
#endif

PPY_RT_DATA int64_t ppy_rt_depth;
PPY_RT_DATA ppy_rt_frame* ppy_rt_frames; /* tracebacks (issue 34): ppy_trace.h */

static struct {
  char buf[1 << 16];
  size_t len;
  ppy_rt_write_fn out, err;
  void* ctx;
  int atexit_done;
  ppy_rt_trap* trap;      /* armed by ppy_rt_run: a raise jumps there instead of exiting */
  int quiet;              /* ppy_rt_call: the caller reports the exception, not stderr */
  const char* error_name; /* the last raise, for ppy_rt_last_error */
  const char* error_message;
  /* exception classes: the object a `raise` of a class instance carried
     (NULL for a builtin exception) and its classes, its own then its bases,
     space-separated; `pending_*` until ppy_rt_raise takes them */
  void* error_object;
  const char* error_classes;
  void* pending_object;
  const char* pending_classes;
  int pending_again; /* ppy_rt_mark_raise_again, until ppy_rt_raise takes it */
  int raising_again; /* the raise under way may be a caught one again */
  int64_t recursion_limit;    /* 0: Python's default, 1000 */
  ppy_rt_raise_fn raise_hook; /* ppy_rt_set_raise_hook */
  int exit_status;            /* SystemExit: the status sys.exit asked for (ppy_rt_set_exit) */
  int exit_prints;            /* SystemExit: its message goes to stderr (sys.exit("message")) */
  ppy_rt_frame* try_frames;   /* tracebacks (issue 34): the frames where the innermost ppy_rt_try began */
} ppy_rt_state;               /* zero-initialized: recursion_limit 0 means 1000 */

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

PPY_RT_INTERNAL void ppy_rt_write(const char* s, size_t n) {
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

PPY_RT_INTERNAL void ppy_rt_write_err(const char* s, size_t n) {
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
  ppy_rt_state.error_object = ppy_rt_state.pending_object;
  ppy_rt_state.error_classes = ppy_rt_state.pending_classes ? ppy_rt_state.pending_classes : name;
  ppy_rt_state.pending_object = NULL;
  ppy_rt_state.pending_classes = NULL;
  ppy_rt_state.raising_again = ppy_rt_state.pending_again;
  ppy_rt_state.pending_again = 0;
  if (ppy_rt_state.raise_hook) ppy_rt_state.raise_hook(name, message);
  /* A raise a try catches flushes nothing, as in python3 (issue 33). */
  int status = 1;
  if (ppy_rt_state.quiet) ppy_rt_trace_caught(ppy_rt_state.try_frames, name, message); /* tracebacks (issue 34) */
  if (!ppy_rt_state.quiet) status = ppy_rt_uncaught(name, message);
  ppy_rt_state.error_name = name;
  ppy_rt_state.error_message = message ? message : "";
  if (ppy_rt_state.trap) PPY_RT_SPRING_TRAP(*ppy_rt_state.trap);
  exit(status);
}

/* SystemExit (issue 33): what sys.exit asked for, kept until the raise ends
 * the program or a handler catches it. */
PPY_RT_API void ppy_rt_set_exit(int status, int prints) {
  ppy_rt_state.exit_status = status;
  ppy_rt_state.exit_prints = prints;
}

/** Reports an exception nothing caught, as python3 does, and answers the exit
 * status: `<Name>: <message>` on stderr and 1, or for SystemExit the status
 * sys.exit asked for, its message on stderr only for `sys.exit("message")`.
 * Stdout is flushed first, as python3 flushes sys.stdout before it writes the
 * report (a pipe holding both shows the output, then the report). */
PPY_RT_API int ppy_rt_uncaught(const char* name, const char* message) {
  int status = 1;
  ppy_rt_flush();
  if (!ppy_rt_state.err) fflush(stdout);
  if (strcmp(name, "SystemExit") == 0) {
    if (ppy_rt_state.exit_prints && message) {
      ppy_rt_write_err(message, strlen(message));
      ppy_rt_write_err("\n", 1);
    }
    status = ppy_rt_state.exit_status;
  } else {
    ppy_rt_traceback(name, message); /* tracebacks (issue 34): the frames under way, ppy_trace.c */
    ppy_rt_write_err(name, strlen(name));
    if (message && message[0]) {
      ppy_rt_write_err(": ", 2);
      ppy_rt_write_err(message, strlen(message));
    }
    ppy_rt_write_err("\n", 1);
  }
  return status;
}

/** A raise of an exception class's instance (ppy_exc_raise_object): as
 * ppy_rt_raise, and ppy_rt_last_object answers `object` and `classes` next. */
PPY_RT_API PPY_RT_NORETURN void ppy_rt_raise_object(const char* name, const char* message, void* object,
                                                    const char* classes) {
  ppy_rt_state.pending_object = object;
  ppy_rt_state.pending_classes = classes;
  ppy_rt_raise(name, message);
}

PPY_RT_API void ppy_rt_mark_raise_again(void) { ppy_rt_state.pending_again = 1; }

PPY_RT_API int ppy_rt_raising_again(void) { return ppy_rt_state.raising_again; }

PPY_RT_API PPY_RT_NORETURN void ppy_rt_overflow(void) { ppy_rt_raise("OverflowError", "integer overflow"); }

/** Runs `entry` (a program's main) and answers its exit status: 0, or 1 when
 * it raised. Output is flushed and every list freed either way. */
PPY_RT_API int ppy_rt_run(void (*entry)(void)) {
  ppy_rt_trap trap;
  ppy_rt_trap* saved = ppy_rt_state.trap;
  volatile int status = 0;
  ppy_rt_state.trap = &trap;
  ppy_rt_depth = 0;
  ppy_rt_frames = NULL; /* tracebacks (issue 34) */
  if (PPY_RT_SET_TRAP(trap) == 0) {
    entry();
  } else {
    /* Read through volatile: GCC's __builtin_setjmp receiver used a copy of the
     * state loaded before entry() ran (sys.exit(3) ended with 1). */
    const char* name = *(const char* volatile*)&ppy_rt_state.error_name;
    int code = *(volatile int*)&ppy_rt_state.exit_status;
    status = name && strcmp(name, "SystemExit") == 0 ? code : 1;
  }
  ppy_rt_state.trap = saved;
  ppy_rt_depth = 0;
  ppy_rt_frames = NULL;
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
  ppy_rt_trap trap;
  ppy_rt_trap* saved = ppy_rt_state.trap;
  int64_t depth = ppy_rt_depth;
  ppy_rt_frame* volatile frames = ppy_rt_frames; /* tracebacks (issue 34): the unwound frames' chain */
  ppy_rt_frame* volatile try_frames = ppy_rt_state.try_frames;
  int quiet = ppy_rt_state.quiet;
  ppy_rt_state.try_frames = ppy_rt_frames;
  ppy_rt_trace_try_entered();
  volatile int64_t status = 0;
  ppy_rt_state.trap = &trap;
  ppy_rt_state.quiet = 1;
  if (PPY_RT_SET_TRAP(trap) == 0)
    fn(arg);
  else
    status = 1;
  ppy_rt_state.trap = saved;
  ppy_rt_state.quiet = quiet;
  ppy_rt_depth = depth;
  ppy_rt_frames = frames;
  ppy_rt_state.try_frames = try_frames;
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

PPY_RT_INTERNAL void ppy_rt_set_error(const char* name, const char* message) {
  ppy_rt_state.error_name = name;
  ppy_rt_state.error_message = message;
  ppy_rt_state.error_object = NULL;
  ppy_rt_state.error_classes = name;
}

/** The last raise's object (NULL for a builtin exception) and its classes
 * (just its name for a builtin exception). */
PPY_RT_API void ppy_rt_last_object(void** object, const char** classes) {
  *object = ppy_rt_state.error_object;
  *classes = ppy_rt_state.error_classes ? ppy_rt_state.error_classes : "";
}

PPY_RT_INTERNAL void ppy_rt_set_object(void* object, const char* classes) {
  ppy_rt_state.error_object = object;
  ppy_rt_state.error_classes = classes;
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

#ifdef PPY_RT_STRINGS

/* ------------------------------------------------------------------------ */
/* The collector                                                             */

PPY_RT_INTERNAL int ppy_rt_gc_ready;

#if defined(__linux__) && !defined(__cplusplus)
int madvise(void* addr, size_t length, int advice);
#ifndef MADV_HUGEPAGE
#define MADV_HUGEPAGE 14
#endif
/* The heap's fresh `more` bytes asked for transparent huge pages (issue 32):
 * a loop that raises and catches allocates its way through the whole 16 MiB
 * between collections, and each of its 4 KiB pages cost a page fault at its
 * first touch (4,600 of them, a third of the figure on a loaded machine). The
 * section is found as the one free block that holds most of it, taken and
 * given back at once (an atomic block: nothing is written to it). */
static void ppy_rt_gc_huge(size_t more) {
  const uintptr_t huge = (uintptr_t)2 << 20;
  if (more < 2 * huge) return;
  char* p = (char*)GC_malloc_atomic_ignore_off_page(more - huge);
  if (!p) return;
  uintptr_t from = ((uintptr_t)p + huge - 1) & ~(huge - 1);
  uintptr_t to = ((uintptr_t)p + more - huge) & ~(huge - 1);
  if (to > from) madvise((void*)from, to - from, MADV_HUGEPAGE);
  GC_free(p);
}
#else
static void ppy_rt_gc_huge(size_t more) { (void)more; }
#endif

/** Starts the collector once (from the program's first thread). */
PPY_RT_API void ppy_rt_gc_init(void) {
  if (ppy_rt_gc_ready) return;
  GC_INIT();
  /* A heap of 16 MiB from the start (issue 35): from Boehm's 64 KiB, a loop making
   * short-lived strings collected hundreds of times, each time scanning the roots
   * for a few KiB of live data (f-string lines: 272 collections, 0.31 s -> 0.23 s).
   * GC_INITIAL_HEAP_SIZE still says otherwise. */
  if (!getenv("GC_INITIAL_HEAP_SIZE") && GC_get_heap_size() < ((size_t)16 << 20)) {
    size_t more = ((size_t)16 << 20) - GC_get_heap_size();
    if (GC_expand_hp(more)) ppy_rt_gc_huge(more);
  }
  ppy_rt_gc_ready = 1;
}

#endif /* PPY_RT_STRINGS */

#endif /* PPY_RT_DECLARATIONS_ONLY */
