/* vecmath: a small vendor library over buffers of doubles.
 *
 * A ppy list[float] crosses to C as its data pointer and its length (two
 * arguments): docs/writing-a-plugin.md, "How values cross". Lengths are
 * checked by the plugin's stub before any call (ValueError), so each function
 * here trusts them; a mismatch reaching C reads the shorter length. */
#ifndef VECMATH_H
#define VECMATH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The sum of a[i] * b[i]. */
double vecmath_dot(const double* a, int64_t a_len, const double* b, int64_t b_len);
/** The Euclidean norm of a. */
double vecmath_norm(const double* a, int64_t a_len);
/** y[i] += alpha * x[i], in place. */
void vecmath_axpy(double alpha, const double* x, int64_t x_len, double* y, int64_t y_len);
/** axpy, then the norm of the updated y: what a fusion pass calls for `axpy(...)` followed by `norm(y)`. */
double vecmath_axpy_norm(double alpha, const double* x, int64_t x_len, double* y, int64_t y_len);

#ifdef __cplusplus
}
#endif

#endif
