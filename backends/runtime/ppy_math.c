/* ppy_math.c: the `math` module's functions beyond the IR's math dialect
 * (ppy_math.h). */
#include "ppy_math.h"

#ifndef PPY_RT_DECLARATIONS_ONLY

#include <math.h>
#include <stdlib.h>
#include <string.h>

static PPY_RT_NORETURN void ppy_math_domain(void) { ppy_rt_raise("ValueError", "math domain error"); }
static PPY_RT_NORETURN void ppy_math_range(void) { ppy_rt_raise("OverflowError", "math range error"); }

/** A finite argument whose result overflowed: OverflowError, as CPython's. */
static double ppy_math_checked(double x, double r) {
  if (isinf(r) && isfinite(x)) ppy_math_range();
  return r;
}

PPY_RT_API double ppy_math_asin(double x) {
  if (fabs(x) > 1.0) ppy_math_domain();
  return asin(x);
}
PPY_RT_API double ppy_math_acos(double x) {
  if (fabs(x) > 1.0) ppy_math_domain();
  return acos(x);
}
PPY_RT_API double ppy_math_atan(double x) { return atan(x); }
PPY_RT_API double ppy_math_atan2(double y, double x) { return atan2(y, x); }
PPY_RT_API double ppy_math_sinh(double x) { return ppy_math_checked(x, sinh(x)); }
PPY_RT_API double ppy_math_cosh(double x) { return ppy_math_checked(x, cosh(x)); }
PPY_RT_API double ppy_math_tanh(double x) { return tanh(x); }

/** sqrt of a sum of squares in extended precision, rounded once (CPython's
 * hypot and dist are correctly rounded); an infinity wins over a NaN. */
static double ppy_math_norm(const double* v, int64_t n) {
  int any_nan = 0;
  long double s = 0.0L;
  for (int64_t i = 0; i < n; ++i) {
    if (isinf(v[i])) return INFINITY;
    if (isnan(v[i])) any_nan = 1;
    s += (long double)v[i] * (long double)v[i];
  }
  if (any_nan) return NAN;
  return (double)sqrtl(s);
}

PPY_RT_API double ppy_math_hypot(double x, double y) {
  double v[2] = {x, y};
  return ppy_math_checked(fabs(x) + fabs(y), ppy_math_norm(v, 2));
}

PPY_RT_API double ppy_math_copysign(double x, double y) { return copysign(x, y); }

PPY_RT_API double ppy_math_fmod(double x, double y) {
  if (isinf(y) && isfinite(x)) return x;
  if ((y == 0.0 && !isnan(x)) || (isinf(x) && !isnan(y))) ppy_math_domain();
  return fmod(x, y);
}

/** log(x) / log(base), as CPython's; a base of 1 divides by zero. */
PPY_RT_API double ppy_math_log_base(double x, double base) {
  if ((!isnan(x) && x <= 0.0) || (!isnan(base) && base <= 0.0)) ppy_math_domain();
  double den = log(base);
  if (den == 0.0) ppy_rt_raise("ZeroDivisionError", "float division by zero");
  return log(x) / den;
}

PPY_RT_API double ppy_math_log1p(double x) {
  if (x <= -1.0) ppy_math_domain();
  return log1p(x);
}
PPY_RT_API double ppy_math_expm1(double x) { return ppy_math_checked(x, expm1(x)); }

/** As CPython's: x times 180/pi (pi/180), one rounding of the product. */
PPY_RT_API double ppy_math_degrees(double x) { return x * (180.0 / 3.141592653589793238462643383279502884); }
PPY_RT_API double ppy_math_radians(double x) { return x * (3.141592653589793238462643383279502884 / 180.0); }

PPY_RT_API int64_t ppy_math_isnan(double x) { return isnan(x) != 0; }
PPY_RT_API int64_t ppy_math_isinf(double x) { return isinf(x) != 0; }
PPY_RT_API int64_t ppy_math_isfinite(double x) { return isfinite(x) != 0; }

/** CPython's isclose: equal, or within rel_tol of the larger magnitude, or
 * within abs_tol; an infinity is close only to itself. */
PPY_RT_API int64_t ppy_math_isclose(double a, double b, double rel_tol, double abs_tol) {
  if (rel_tol < 0.0 || abs_tol < 0.0) ppy_rt_raise("ValueError", "tolerances must be non-negative");
  if (a == b) return 1;
  if (isinf(a) || isinf(b)) return 0;
  double diff = fabs(b - a);
  return diff <= fabs(rel_tol * b) || diff <= fabs(rel_tol * a) || diff <= abs_tol;
}

PPY_RT_API int64_t ppy_math_isqrt(int64_t n) {
  if (n < 0) ppy_rt_raise("ValueError", "isqrt() argument must be nonnegative");
  int64_t r = (int64_t)sqrt((double)n);
  while (r > 0 && (__int128)r * r > n) --r;
  while ((__int128)(r + 1) * (r + 1) <= n) ++r;
  return r;
}

static int64_t ppy_math_abs(int64_t a) {
  if (a == INT64_MIN) ppy_rt_overflow();
  return a < 0 ? -a : a;
}

PPY_RT_API int64_t ppy_math_gcd(int64_t a, int64_t b) {
  a = ppy_math_abs(a);
  b = ppy_math_abs(b);
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

PPY_RT_API int64_t ppy_math_lcm(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  int64_t g = ppy_math_gcd(a, b);
  int64_t r;
  if (__builtin_mul_overflow(ppy_math_abs(a) / g, ppy_math_abs(b), &r)) ppy_rt_overflow();
  return r;
}

static void ppy_math_nonnegative(int64_t n, int64_t k) {
  if (n < 0) ppy_rt_raise("ValueError", "n must be a non-negative integer");
  if (k < 0) ppy_rt_raise("ValueError", "k must be a non-negative integer");
}

PPY_RT_API int64_t ppy_math_factorial(int64_t n) {
  if (n < 0) ppy_rt_raise("ValueError", "factorial() not defined for negative values");
  int64_t r = 1;
  for (int64_t i = 2; i <= n; ++i)
    if (__builtin_mul_overflow(r, i, &r)) ppy_rt_overflow();
  return r;
}

PPY_RT_API int64_t ppy_math_comb(int64_t n, int64_t k) {
  ppy_math_nonnegative(n, k);
  if (k > n) return 0;
  if (k > n - k) k = n - k;
  __int128 r = 1;
  for (int64_t i = 0; i < k; ++i) {
    r = r * (n - i) / (i + 1); /* exact: a product of i+1 consecutive ints */
    if (r > INT64_MAX) ppy_rt_overflow();
  }
  return (int64_t)r;
}

PPY_RT_API int64_t ppy_math_perm(int64_t n, int64_t k) {
  ppy_math_nonnegative(n, k);
  if (k > n) return 0;
  int64_t r = 1;
  for (int64_t i = 0; i < k; ++i)
    if (__builtin_mul_overflow(r, n - i, &r)) ppy_rt_overflow();
  return r;
}

/** CPython's fsum: Shewchuk's exact partials, rounded once (half-even across
 * partials); infinities and NaNs as CPython treats them. */
PPY_RT_API double ppy_math_fsum(const ppy_list* xs) {
  const double* v = PPY_LIST_F64(xs);
  double* p = (double*)malloc(sizeof(double) * (size_t)(xs->len + 1));
  if (!p) ppy_rt_raise("MemoryError", "");
  int64_t n = 0;
  double special_sum = 0.0, inf_sum = 0.0, x, y, t, hi, yr, lo = 0.0;
  for (int64_t k = 0; k < xs->len; ++k) {
    x = v[k];
    double xsave = x;
    int64_t i = 0;
    for (int64_t j = 0; j < n; ++j) {
      y = p[j];
      if (fabs(x) < fabs(y)) {
        t = x;
        x = y;
        y = t;
      }
      hi = x + y;
      yr = hi - x;
      lo = y - yr;
      if (lo != 0.0) p[i++] = lo;
      x = hi;
    }
    n = i;
    if (x != 0.0) {
      if (!isfinite(x)) {
        if (isfinite(xsave)) {
          free(p);
          ppy_rt_raise("OverflowError", "intermediate overflow in fsum");
        }
        if (isinf(xsave)) inf_sum += xsave;
        special_sum += xsave;
        n = 0;
      } else {
        p[n++] = x;
      }
    }
  }
  if (special_sum != 0.0) {
    free(p);
    if (isnan(inf_sum)) ppy_rt_raise("ValueError", "-inf + inf in fsum");
    return special_sum;
  }
  hi = 0.0;
  if (n > 0) {
    hi = p[--n];
    while (n > 0) {
      x = hi;
      y = p[--n];
      hi = x + y;
      yr = hi - x;
      lo = y - yr;
      if (lo != 0.0) break;
    }
    if (n > 0 && ((lo < 0.0 && p[n - 1] < 0.0) || (lo > 0.0 && p[n - 1] > 0.0))) {
      y = lo * 2.0;
      x = hi + y;
      yr = x - hi;
      if (y == yr) hi = x;
    }
  }
  free(p);
  return hi;
}

PPY_RT_API double ppy_math_prod_f64(const ppy_list* xs) {
  double r = 1.0;
  for (int64_t i = 0; i < xs->len; ++i) r *= PPY_LIST_F64(xs)[i];
  return r;
}

PPY_RT_API int64_t ppy_math_prod_i64(const ppy_list* xs) {
  int64_t r = 1;
  for (int64_t i = 0; i < xs->len; ++i)
    if (__builtin_mul_overflow(r, PPY_LIST_I64(xs)[i], &r)) ppy_rt_overflow();
  return r;
}

PPY_RT_API double ppy_math_dist(const ppy_list* p, const ppy_list* q) {
  if (p->len != q->len) ppy_rt_raise("ValueError", "both points must have the same number of dimensions");
  double* d = (double*)malloc(sizeof(double) * (size_t)(p->len + 1));
  if (!d) ppy_rt_raise("MemoryError", "");
  for (int64_t i = 0; i < p->len; ++i) d[i] = fabs(PPY_LIST_F64(p)[i] - PPY_LIST_F64(q)[i]);
  double r = ppy_math_norm(d, p->len);
  free(d);
  return r;
}

#endif /* PPY_RT_DECLARATIONS_ONLY */
