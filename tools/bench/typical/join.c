/* join.ppy in C: CSV rows formatted into one growing buffer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  enum { N = 200000 };
  char** rows = malloc(N * sizeof *rows);
  size_t total = 0;
  for (int i = 0; i < N; i++) {
    char buf[96];
    int n = snprintf(buf, sizeof buf, "%d,name%d,%d,%s", i, i % 97, i * 3 % 1000, i % 2 == 0 ? "ok" : "no");
    rows[i] = malloc((size_t)n + 1);
    memcpy(rows[i], buf, (size_t)n + 1);
    total += (size_t)n;
  }
  char* text = malloc(total + N);
  size_t at = 0;
  for (int i = 0; i < N; i++) {
    if (i) text[at++] = '\n';
    size_t n = strlen(rows[i]);
    memcpy(text + at, rows[i], n);
    at += n;
  }
  text[at] = 0;
  printf("%zu\n%s\n", at, rows[12345]);
  return 0;
}
