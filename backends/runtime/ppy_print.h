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

/** The format functions compiled code may call (part of PPY_STR_SYMBOLS). */
#define PPY_FORMAT_SYMBOLS(X) X(ppy_str_format_i64) X(ppy_str_format_f64) X(ppy_str_format_str)
#endif /* PPY_RT_STRINGS */

#ifdef __cplusplus
}
#endif

#endif /* PPY_PRINT_H */
