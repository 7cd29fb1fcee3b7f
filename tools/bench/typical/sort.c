/* sort.ppy in C: records as structs, sorted by qsort with the same keys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { char name[12]; long age; double salary; } Rec;

static int by_age(const void* a, const void* b) {
  const Rec *x = a, *y = b;
  if (x->age != y->age) return x->age < y->age ? -1 : 1;
  return strcmp(x->name, y->name);
}
static int by_salary(const void* a, const void* b) {
  const Rec *x = *(Rec* const*)a, *y = *(Rec* const*)b;
  if (x->salary != y->salary) return x->salary < y->salary ? -1 : 1;
  return x < y ? -1 : x > y;  /* stable, as Python's sort is */
}
static int by_name(const void* a, const void* b) { return strcmp(*(char* const*)a, *(char* const*)b); }

static void show(const Rec* r) { printf("('%s', %ld, %.1f)", r->name, r->age, r->salary); }

int main(void) {
  enum { N = 200000 };
  Rec* recs = malloc(N * sizeof *recs);
  for (long i = 0; i < N; i++) {
    snprintf(recs[i].name, sizeof recs[i].name, "n%ld", (i * 7919) % 100003);
    recs[i].age = (i * 31) % 60 + 20;
    recs[i].salary = ((i * 17) % 1000) * 1.5;
  }
  Rec* aged = malloc(N * sizeof *aged);
  memcpy(aged, recs, N * sizeof *aged);
  qsort(aged, N, sizeof *aged, by_age);
  show(&aged[0]);
  printf(" ");
  show(&aged[N - 1]);
  printf("\n");
  Rec** staff = malloc(N * sizeof *staff);
  for (long i = 0; i < N; i++) staff[i] = &recs[i];
  qsort(staff, N, sizeof *staff, by_salary);
  printf("%s %.1f\n", staff[0]->name, staff[N - 1]->salary);
  char** names = malloc(N * sizeof *names);
  for (long i = 0; i < N; i++) names[i] = staff[i]->name;
  qsort(names, N, sizeof *names, by_name);
  printf("%s %s\n", names[0], names[N - 1]);
  return 0;
}
