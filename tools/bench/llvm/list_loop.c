#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
static int64_t sieve(int64_t n) {
  int64_t* flags = malloc(sizeof(int64_t) * (size_t)(n + 1));
  for (int64_t k = 0; k <= n; ++k) flags[k] = 1;
  flags[0] = flags[1] = 0;
  for (int64_t i = 2; i * i <= n; ++i)
    if (flags[i] == 1)
      for (int64_t j = i * i; j <= n; j += i) flags[j] = 0;
  int64_t count = 0;
  for (int64_t k = 0; k <= n; ++k) count += flags[k];
  free(flags);
  return count;
}
int main(void) { printf("%lld\n", (long long)sieve(5000000)); return 0; }
