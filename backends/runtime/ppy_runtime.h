/* ppy_runtime.h: the core of the native runtime of ppy programs (docs/runtime.md).
 *
 * C11 (libc and libm; Boehm's collector under PPY_RT_STRINGS) that every native
 * backend shares. The runtime is split by type, as CPython's Objects/, each a C
 * file with a small header:
 *
 *   ppy_runtime  the core: output buffering, raising, try, recursion and
 *                arithmetic guards, the collector's start
 *   ppy_print    print of i64, f64 (Python's repr of a float), bool and
 *                literals; format specs (f-string fields)
 *   ppy_list     lists: their header, bounds check and storage; ppy_value.c
 *                (under ppy_list.h) what their elements are: repr, ==, <,
 *                and the list methods that compare them
 *   ppy_exc      exceptions: raise, catch, the builtin classes' bases
 *   ppy_str      strings
 *   ppy_obj      instances of classes
 *   ppy_dict     dicts and sets; ppy_set: CPython's own table for sets of ints
 *
 * It reaches compiled code three ways, and every file keeps to the conventions
 * that allow them:
 *   - the static library ppy_runtime (CMakeLists.txt) compiles each file on
 *     its own with PPY_RT_API and PPY_RT_DATA empty (external linkage) and
 *     PPY_RT_SEPARATE (what the files share is hidden, not static); consumers
 *     include the headers with PPY_RT_DECLARATIONS_ONLY and PPY_RT_API extern;
 *   - the C backend pastes the files' text (embed.cmake: the headers, then
 *     the C files, their includes of one another dropped), where every
 *     function stays `static`;
 *   - the LLVM road compiles that same text as one unit with PPY_RT_API empty.
 * What needs the collector is compiled only with PPY_RT_STRINGS defined: a
 * program that uses no string, list or object needs neither it nor `-lgc`.
 *
 * What it gives, byte for byte as the reference interpreter does:
 *   - output buffered, flushed at exit and before any error;
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

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)
#include <gc.h>
#endif

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

/* What the runtime's files share and compiled code never calls: static in the
 * one text the backends paste or compile, a hidden symbol of the library when
 * it compiles each file on its own (PPY_RT_SEPARATE). */
#ifdef PPY_RT_SEPARATE
#define PPY_RT_INTERNAL __attribute__((visibility("hidden")))
#elif defined(__GNUC__)
#define PPY_RT_INTERNAL static __attribute__((unused))
#else
#define PPY_RT_INTERNAL static
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
 * the headers only declare it, for code that links the static library.      */

/** Where output goes: `write(ctx, bytes, n)`; NULL writes to stdout/stderr. */
typedef void (*ppy_rt_write_fn)(void* ctx, const char* bytes, size_t n);

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
/* exception classes (docs/runtime.md, "Exceptions") */
PPY_RT_API PPY_RT_NORETURN void ppy_rt_raise_object(const char* name, const char* message, void* object,
                                                    const char* classes);
PPY_RT_API void ppy_rt_last_object(void** object, const char** classes);
/** A caught exception raised again (ppy_exc_raise_object: a bare `raise`, an
 * `except` that does not match, a `finally`) may show where it first came from;
 * any other raise is a new one, even of the same name and message. The next
 * ppy_rt_raise_object is marked so; ppy_rt_raising_again answers it while that
 * raise is under way (the interpreter's raise hook asks). */
PPY_RT_API void ppy_rt_mark_raise_again(void);
PPY_RT_API int ppy_rt_raising_again(void);
/** SystemExit (ppy_sys.c): the exit status, and whether the message is shown. */
PPY_RT_API void ppy_rt_set_exit(int status, int prints);
/** Reports an uncaught exception on stderr and answers the exit status (1, or
 * what sys.exit asked for): ppy_rt_raise's end, and the interpreter's. */
PPY_RT_API int ppy_rt_uncaught(const char* name, const char* message);
PPY_RT_API void ppy_rt_set_recursion_limit(int64_t limit);
PPY_RT_API void ppy_rt_enter(void);
PPY_RT_API void ppy_rt_leave(void);
PPY_RT_API int64_t ppy_pow_i64(int64_t base, int64_t exp);
PPY_RT_API int64_t ppy_int_floordiv(int64_t a, int64_t b);
PPY_RT_API int64_t ppy_int_floormod(int64_t a, int64_t b);
PPY_RT_API double ppy_float_floormod(double a, double b);
PPY_RT_API double ppy_float_floordiv(double a, double b);
PPY_RT_API int64_t ppy_float_to_i64(double v);
#ifdef PPY_RT_STRINGS
PPY_RT_API void ppy_rt_gc_init(void);
#endif

/** Every function compiled code may call that needs no collector, for a JIT's
 * symbol table: X(name). The core's, then printing's (ppy_print.h) and the
 * list guards' (ppy_list.h). */
/* clang-format off */
#define PPY_RT_SYMBOLS(X)                                                                            \
  X(ppy_rt_flush) X(ppy_rt_raise) X(ppy_rt_overflow) X(ppy_rt_run) X(ppy_rt_call) X(ppy_rt_try)     \
  X(ppy_rt_enter) X(ppy_rt_leave) X(ppy_pow_i64) X(ppy_int_floordiv) X(ppy_int_floormod)            \
  X(ppy_float_floormod) X(ppy_float_floordiv) X(ppy_float_to_i64) X(ppy_rt_depth)                  \
  PPY_PRINT_SYMBOLS(X) PPY_LIST_GUARD_SYMBOLS(X) PPY_TRACE_SYMBOLS(X)
/* clang-format on */

#ifndef PPY_RT_DECLARATIONS_ONLY
/* Shared with the runtime's other files. */

/** Appends `n` bytes to the output buffer (ppy_print.c, ppy_str.c). */
PPY_RT_INTERNAL void ppy_rt_write(const char* s, size_t n);
/** Writes `n` bytes to stderr, unbuffered (sys.stderr, uncaught errors). */
PPY_RT_INTERNAL void ppy_rt_write_err(const char* s, size_t n);
/** Records a caught exception's name and message for ppy_rt_last_error
 * (ppy_exc_set). */
PPY_RT_INTERNAL void ppy_rt_set_error(const char* name, const char* message);
/** Records a caught exception's object and classes after ppy_rt_set_error
 * (ppy_exc_set_object). */
PPY_RT_INTERNAL void ppy_rt_set_object(void* object, const char* classes);
#if defined(PPY_RT_STRINGS) && defined(PPY_RT_SEPARATE)
/** Whether ppy_rt_gc_init ran: every allocation looks first (ppy_runtime.c). */
extern PPY_RT_INTERNAL int ppy_rt_gc_ready;
#endif
#endif /* PPY_RT_DECLARATIONS_ONLY */

#ifdef __cplusplus
}
#endif

/* What PPY_RT_SYMBOLS names, declared for whoever includes this header. */
#include "ppy_list.h"
#include "ppy_print.h"
#include "ppy_trace.h"

#endif /* PPY_RUNTIME_H */
