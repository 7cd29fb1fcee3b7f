/* ppy_print.h: printing and formatting of the native runtime (ppy_print.c).
 *
 * print of i64, f64 (Python's repr of a float), bool and string literals into
 * the core's output buffer; and, on the collector (PPY_RT_STRINGS), `format(v,
 * spec)` of an f-string field (docs/runtime.md, "Strings").
 */
#ifndef PPY_PRINT_H
#define PPY_PRINT_H

#include "ppy_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

PPY_RT_API int ppy_format_f64(double v, char* out);
PPY_RT_API void ppy_print_i64(int64_t v);
PPY_RT_API void ppy_print_f64(double v);
PPY_RT_API void ppy_print_bool(int32_t v);
PPY_RT_API void ppy_print_str(const char* s, int64_t n);
PPY_RT_API void ppy_print_space(void);
PPY_RT_API void ppy_print_newline(void);

/** The print functions compiled code may call (part of PPY_RT_SYMBOLS). */
#define PPY_PRINT_SYMBOLS(X) \
  X(ppy_print_i64) X(ppy_print_f64) X(ppy_print_bool) X(ppy_print_str) X(ppy_print_space) X(ppy_print_newline)

#ifdef PPY_RT_STRINGS
typedef struct ppy_str ppy_str; /* ppy_str.h */

PPY_RT_API ppy_str* ppy_str_format_i64(int64_t v, const ppy_str* spec);
PPY_RT_API ppy_str* ppy_str_format_f64(double v, const ppy_str* spec);
PPY_RT_API ppy_str* ppy_str_format_str(const ppy_str* s, const ppy_str* spec);

/* speedsort: an f-string's text built in one str (docs/runtime.md, "Text built in place"):
 * ppy_fmt_new makes a builder with room for `room` bytes, each ppy_fmt_* appends to it and
 * answers it (moved where it had to grow), ppy_fmt_end answers it as the finished str. */
PPY_RT_API ppy_str* ppy_fmt_new(int64_t room);
PPY_RT_API ppy_str* ppy_fmt_str(ppy_str* b, const ppy_str* s);
PPY_RT_API ppy_str* ppy_fmt_repeat(ppy_str* b, const ppy_str* s, int64_t n);
PPY_RT_API ppy_str* ppy_fmt_i64(ppy_str* b, int64_t v, const ppy_str* spec);
PPY_RT_API ppy_str* ppy_fmt_f64(ppy_str* b, double v, const ppy_str* spec);
PPY_RT_API ppy_str* ppy_fmt_end(ppy_str* b);

/** The format functions compiled code may call (part of PPY_STR_SYMBOLS). */
#define PPY_FORMAT_SYMBOLS(X) X(ppy_str_format_i64) X(ppy_str_format_f64) X(ppy_str_format_str)
#endif /* PPY_RT_STRINGS */

#ifdef __cplusplus
}
#endif

#endif /* PPY_PRINT_H */
