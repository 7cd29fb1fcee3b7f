/* ppy_set.c: a set of ints as CPython keeps it (ppy_dict.h). */
#include "ppy_dict.h"

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)

/* A set of ints is CPython's own table (Objects/setobject.c), so that it iterates and prints in the order Python's
 * does: open addressing over 2^k slots (empty, active, or a dummy left by a removal), the int's own hash (its value
 * mod 2^61 - 1, -1 taken as -2), 9 linear probes then perturbation, an add reusing the last dummy it passed, the
 * table grown to hold 4x its size (2x past 50,000) once 3/5 full, the live entries reinserted in slot order. */
#define PPY_CSET_PROBES 9

static uint64_t ppy_cset_hash(int64_t k) {
  const uint64_t P = ((uint64_t)1 << 61) - 1;
  uint64_t a = k < 0 ? (uint64_t)0 - (uint64_t)k : (uint64_t)k;
  int64_t v = (int64_t)(a % P);
  if (k < 0) v = -v;
  if (v == -1) v = -2;
  return (uint64_t)v;
}

PPY_RT_INTERNAL void ppy_cset_alloc(ppy_dict* d, int64_t slots) {
  if (slots > PPY_LIST_MAX) ppy_rt_raise("MemoryError", "");
  d->e = (ppy_dict_entry*)GC_MALLOC_ATOMIC((size_t)slots * sizeof(ppy_dict_entry));
  if (!d->e) ppy_rt_raise("MemoryError", "");
  memset(d->e, 0, (size_t)slots * sizeof(ppy_dict_entry));
  d->mask = slots - 1;
  d->cap = slots;
  d->n = 0;
}

/** The slot holding `k`, or -1. */
PPY_RT_INTERNAL int64_t ppy_cset_find(const ppy_dict* d, int64_t k) {
  uint64_t h = ppy_cset_hash(k), mask = (uint64_t)d->mask, perturb = h, i = h & mask;
  for (;;) {
    int probes = i + PPY_CSET_PROBES <= mask ? PPY_CSET_PROBES : 0;
    uint64_t j = i;
    for (;;) {
      const ppy_dict_entry* e = &d->e[j];
      if (e->live == 0) return -1;
      if (e->live == 1 && e->key == k) return (int64_t)j;
      if (probes-- == 0) break;
      ++j;
    }
    perturb >>= 5;
    i = (i * 5 + 1 + perturb) & mask;
  }
}

static void ppy_cset_insert_clean(ppy_dict* d, ppy_dict_entry e) {
  uint64_t mask = (uint64_t)d->mask, perturb = e.hash, i = e.hash & mask;
  for (;;) {
    if (d->e[i].live == 0) {
      d->e[i] = e;
      return;
    }
    if (i + PPY_CSET_PROBES <= mask)
      for (uint64_t j = 1; j <= PPY_CSET_PROBES; ++j)
        if (d->e[i + j].live == 0) {
          d->e[i + j] = e;
          return;
        }
    perturb >>= 5;
    i = (i * 5 + 1 + perturb) & mask;
  }
}

static void ppy_cset_resize(ppy_dict* d, int64_t minused) {
  ppy_dict_entry* old = d->e;
  int64_t slots = 8, oldslots = d->mask + 1;
  while (slots <= minused) slots <<= 1;
  ppy_cset_alloc(d, slots);
  d->n = d->used;
  for (int64_t j = 0; j < oldslots; ++j)
    if (old[j].live == 1) ppy_cset_insert_clean(d, old[j]);
}

PPY_RT_INTERNAL void ppy_cset_add(ppy_dict* d, int64_t k) {
  uint64_t h = ppy_cset_hash(k), mask = (uint64_t)d->mask, perturb = h, i = h & mask;
  ppy_dict_entry* freeslot = NULL;
  for (;;) {
    int probes = i + PPY_CSET_PROBES <= mask ? PPY_CSET_PROBES : 0;
    uint64_t j = i;
    for (;;) {
      ppy_dict_entry* e = &d->e[j];
      if (e->live == 0) {
        if (freeslot) {
          e = freeslot;
        } else {
          d->n++; /* fill */
        }
        e->hash = h;
        e->key = k;
        e->live = 1;
        d->used++;
        if (!freeslot && (uint64_t)d->n * 5 >= mask * 3)
          ppy_cset_resize(d, d->used > 50000 ? d->used * 2 : d->used * 4);
        return;
      }
      if (e->live == 1 && e->key == k) return;
      if (e->live == -1) freeslot = e;
      if (probes-- == 0) break;
      ++j;
    }
    perturb >>= 5;
    i = (i * 5 + 1 + perturb) & mask;
  }
}

#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */
