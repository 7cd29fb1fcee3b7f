/* ppy_math.h: the `math` module's functions beyond the IR's math dialect
 * (docs/runtime.md, "math"), each with CPython's result and its errors
 * (ValueError "math domain error", OverflowError "math range error"). */
#ifndef PPY_MATH_H
#define PPY_MATH_H

#include "ppy_list.h"
#include "ppy_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

PPY_RT_API double ppy_math_asin(double x);
PPY_RT_API double ppy_math_acos(double x);
PPY_RT_API double ppy_math_atan(double x);
PPY_RT_API double ppy_math_atan2(double y, double x);
PPY_RT_API double ppy_math_sinh(double x);
PPY_RT_API double ppy_math_cosh(double x);
PPY_RT_API double ppy_math_tanh(double x);
PPY_RT_API double ppy_math_hypot(double x, double y);
PPY_RT_API double ppy_math_copysign(double x, double y);
PPY_RT_API double ppy_math_fmod(double x, double y);
PPY_RT_API double ppy_math_log_base(double x, double base);
PPY_RT_API double ppy_math_log1p(double x);
PPY_RT_API double ppy_math_expm1(double x);
PPY_RT_API double ppy_math_degrees(double x);
PPY_RT_API double ppy_math_radians(double x);
PPY_RT_API int64_t ppy_math_isnan(double x);
PPY_RT_API int64_t ppy_math_isinf(double x);
PPY_RT_API int64_t ppy_math_isfinite(double x);
PPY_RT_API int64_t ppy_math_isclose(double a, double b, double rel_tol, double abs_tol);
PPY_RT_API int64_t ppy_math_isqrt(int64_t n);
PPY_RT_API int64_t ppy_math_gcd(int64_t a, int64_t b);
PPY_RT_API int64_t ppy_math_lcm(int64_t a, int64_t b);
PPY_RT_API int64_t ppy_math_factorial(int64_t n);
PPY_RT_API int64_t ppy_math_comb(int64_t n, int64_t k);
PPY_RT_API int64_t ppy_math_perm(int64_t n, int64_t k);
PPY_RT_API double ppy_math_fsum(const ppy_list* xs);
PPY_RT_API double ppy_math_prod_f64(const ppy_list* xs);
PPY_RT_API int64_t ppy_math_prod_i64(const ppy_list* xs);
PPY_RT_API double ppy_math_dist(const ppy_list* p, const ppy_list* q);

#ifdef __cplusplus
}
#endif

#endif /* PPY_MATH_H */
