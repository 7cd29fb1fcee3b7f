/* ppy_trace.h: tracebacks of uncaught exceptions (docs/runtime.md, "Tracebacks").
 *
 * Compiled code keeps a chain of the frames under way, innermost first: a
 * function that may raise links a frame of its own on its stack at entry and
 * unlinks it at each return, and writes the frame's line only before what can
 * raise (a call; a guard's line only on its failing edge). Nothing else runs
 * on the hot path: the chain is read only when an exception nothing catches
 * ends the program, to print Python's `Traceback (most recent call last):`.
 */
#ifndef PPY_TRACE_H
#define PPY_TRACE_H

#include "ppy_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A comprehension inside a function (`<listcomp>`, `<genexpr>`...): python3
 * runs it as a frame of its own, compiled code as a loop inline, so it is
 * only named. A frame's `line` inside comprehension k (1-based) is
 * `line | k << 32`: the traceback prints the function at the line of the
 * outermost comprehension around k, then each comprehension out to k, k at
 * the line itself (ppy/ir/trace.h, TraceComprehension). */
typedef struct ppy_rt_comp {
  const char* function; /* NULL ends a function's table */
  int64_t line;         /* where it stands in its parent (or the function) */
  int64_t parent;       /* the comprehension around it (1-based), 0 for none */
} ppy_rt_comp;

/** What a frame runs: a function's name as python3 prints it (`<module>` for
 * a module's top level), its file as the IR's locations name it, and its
 * comprehensions (NULL: none). One constant per function, so a frame costs
 * three stores at entry. */
typedef struct ppy_rt_code {
  const char* function;
  const char* file;
  const ppy_rt_comp* comps;
} ppy_rt_code;

/** A call under way: its caller's frame, what it runs, and the line it is at
 * (the line of the call or raise it is making; 0 before the first). On the
 * LLVM road `depth` counts the calls of recursive functions under way up to
 * this one (its caller's + 1 in a recursive function, its caller's else):
 * RecursionError past Python's limit costs no global counter there, and the
 * count is one across modules. A recursive function that names no frame
 * (it cannot raise) links one with a NULL `code` for its depth alone; a
 * traceback passes it over. The C road counts in ppy_rt_depth and leaves
 * `depth` 0. */
typedef struct ppy_rt_frame {
  struct ppy_rt_frame* prev;
  const ppy_rt_code* code;
  int64_t line;
  int64_t depth;
} ppy_rt_frame;

/** The innermost frame (NULL outside compiled code). ppy_rt_try restores it
 * when it catches, as the stack it unwound is gone. */
#if defined(PPY_RT_DECLARATIONS_ONLY) || defined(PPY_RT_SEPARATE)
extern ppy_rt_frame* ppy_rt_frames; /* defined in ppy_runtime.c, beside ppy_rt_depth */
#endif

/** Where files named by relative locations are read from for the source
 * lines a traceback quotes (the project's folder; NULL: the working
 * directory). The string is kept, not copied. */
PPY_RT_API void ppy_rt_set_source_root(const char* root);

/** Writes the traceback of the frames under way on stderr (nothing when there
 * are none) for exception `name: message`: ppy_rt_uncaught's start. */
PPY_RT_API void ppy_rt_traceback(const char* name, const char* message);

/** A raise a try catches (`try_frames`: the chain where that try began): its
 * unwound frames are kept, so that when the handler raises the same exception
 * again (an `except` that does not match, a `finally`), the traceback shows
 * where it first came from, as python3's does. */
#ifndef PPY_RT_DECLARATIONS_ONLY
/** A try begins (ppy_rt_try): a raise after it is a new one, never the last
 * caught one raised again, even with the same name and message. */
PPY_RT_INTERNAL void ppy_rt_trace_try_entered(void);
PPY_RT_INTERNAL void ppy_rt_trace_caught(const ppy_rt_frame* try_frames, const char* name, const char* message);
#endif

/** Writes `Traceback (most recent call last):` then the frames given, outermost
 * first, each with its source line when the file is found (a line inside a
 * comprehension as in ppy_rt_frame): for an embedder that keeps its own
 * frames (the interpreter). */
PPY_RT_API void ppy_rt_traceback_write(const ppy_rt_code* const* codes, const int64_t* lines, size_t n);

#define PPY_TRACE_SYMBOLS(X) X(ppy_rt_frames) X(ppy_rt_set_source_root)

#ifdef __cplusplus
}
#endif

#endif /* PPY_TRACE_H */
