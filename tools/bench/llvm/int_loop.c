#include <stdint.h>
#include <stdio.h>
static int64_t work(int64_t n) {
  int64_t s = 0;
  for (int64_t i = 0; i < n; ++i) s = (s + i * i) % 1000003;
  return s;
}
int main(void) { printf("%lld\n", (long long)work(20000000)); return 0; }
