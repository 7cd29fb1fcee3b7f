/* vecmath: the vendor library the example plugin types (vecmath.h). */
#include "vecmath.h"

#include <math.h>

static int64_t shorter(int64_t a, int64_t b) { return a < b ? a : b; }

double vecmath_dot(const double* a, int64_t a_len, const double* b, int64_t b_len) {
  double sum = 0.0;
  for (int64_t i = 0, n = shorter(a_len, b_len); i < n; ++i) sum += a[i] * b[i];
  return sum;
}

double vecmath_norm(const double* a, int64_t a_len) {
  /* As the pure-Python vecmath.py computes it: the square root of the dot
   * product with itself, summed in order, so both print the same digits. */
  return sqrt(vecmath_dot(a, a_len, a, a_len));
}

void vecmath_axpy(double alpha, const double* x, int64_t x_len, double* y, int64_t y_len) {
  for (int64_t i = 0, n = shorter(x_len, y_len); i < n; ++i) y[i] += alpha * x[i];
}

double vecmath_axpy_norm(double alpha, const double* x, int64_t x_len, double* y, int64_t y_len) {
  vecmath_axpy(alpha, x, x_len, y, y_len);
  return vecmath_norm(y, y_len);
}
