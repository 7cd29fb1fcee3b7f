/* words.ppy in C: words built into a line, split, counted in an open-addressing hash table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SLOTS = 4096 };
typedef struct { char* word; long count; } Slot;
static Slot table[SLOTS];

static unsigned long hash(const char* s, size_t n) {
  unsigned long h = 1469598103934665603UL;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211UL;
  return h;
}

static void count(const char* s, size_t n) {
  for (unsigned long i = hash(s, n) & (SLOTS - 1);; i = (i + 1) & (SLOTS - 1)) {
    if (!table[i].word) {
      table[i].word = strndup(s, n);
      table[i].count = 1;
      return;
    }
    if (strlen(table[i].word) == n && !memcmp(table[i].word, s, n)) {
      table[i].count++;
      return;
    }
  }
}

static int order(const void* a, const void* b) {
  const Slot *x = a, *y = b;
  if (x->count != y->count) return x->count > y->count ? -1 : 1;
  return strcmp(x->word, y->word);
}

int main(void) {
  const char* vocab[] = {"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "and", "runs",
                         "away", "from", "a", "big", "red", "cat", "while", "birds", "sing", "loudly"};
  char* line = malloc(20000 * 16);
  for (int r = 0; r < 40; r++) {
    size_t at = 0;
    for (int i = 0; i < 20000; i++) {
      if (i) line[at++] = ' ';
      at += (size_t)sprintf(line + at, "%s%d", vocab[(i * 7 + r * 3 + i / 13) % 20], i % 50);
    }
    line[at] = 0;
    for (char* p = line; *p;) {
      while (*p == ' ') p++;
      char* q = p;
      while (*q && *q != ' ') q++;
      if (q > p) count(p, (size_t)(q - p));
      p = q;
    }
  }
  Slot all[SLOTS];
  int n = 0;
  for (int i = 0; i < SLOTS; i++)
    if (table[i].word) all[n++] = table[i];
  qsort(all, (size_t)n, sizeof *all, order);
  for (int i = 0; i < 5; i++) printf("%s %ld\n", all[i].word, all[i].count);
  printf("%d\n", n);
  return 0;
}
