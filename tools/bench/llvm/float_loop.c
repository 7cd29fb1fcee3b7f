#include <stdint.h>
#include <stdio.h>
static double work(int64_t n) {
  double s = 0.0, x = 0.5;
  for (int64_t i = 0; i < n; ++i) {
    x = x * 1.0000001 + 0.25 / (x + 1.0);
    s += x / ((double)i + 1.0);
  }
  return s;
}
int main(void) { printf("%.17g\n", work(10000000)); return 0; }
