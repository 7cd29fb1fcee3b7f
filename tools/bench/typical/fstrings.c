/* fstrings.ppy in C: each line formatted by snprintf. */
#include <stdio.h>
#include <string.h>

int main(void) {
  long total = 0;
  char line[128], tag[8];
  for (int i = 0; i < 300000; i++) {
    int k = i % 5;
    memset(tag, 'x', (size_t)k);
    tag[k] = 0;
    total += snprintf(line, sizeof line, "item %6d: value=%.2f tag=%s", i, i * 0.5, tag);
  }
  printf("%ld\n", total);
  return 0;
}
