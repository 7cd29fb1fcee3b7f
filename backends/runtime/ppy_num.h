/* ppy_num.h: the numeric builtins beyond the IR's arithmetic (docs/runtime.md,
 * "Numbers"): `round` correctly rounded as CPython's, `pow(a, b, m)`, and
 * `int(s, base)` (on the collector: it takes a str). */
#ifndef PPY_NUM_H
#define PPY_NUM_H

#include "ppy_runtime.h"
#ifdef PPY_RT_STRINGS
#include "ppy_str.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

PPY_RT_API double ppy_f64_round(double x, int64_t ndigits);
PPY_RT_API int64_t ppy_i64_round(int64_t x, int64_t ndigits);
PPY_RT_API int64_t ppy_pow_mod_i64(int64_t base, int64_t exp, int64_t mod);
#ifdef PPY_RT_STRINGS
PPY_RT_API int64_t ppy_str_to_i64_base(const ppy_str* s, int64_t base);
#endif

#ifdef __cplusplus
}
#endif

#endif /* PPY_NUM_H */
