/* ppy_dict.c: dicts, and sets of anything but ints (ppy_dict.h). */
#include "ppy_dict.h"
#include "ppy_words.h" /* typical: the hashes of shared words */

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)

#define PPY_DICT_EMPTY (-1)
#define PPY_DICT_DUMMY (-2)

static uint64_t ppy_hash_i64(int64_t k) {
  uint64_t x = (uint64_t)k;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

/* speedrt: strs hash by wyhash's construction (Wang Yi's, public domain): a
 * word of 4 or 8 bytes at a step folded by 64x64->128-bit multiplies, reading
 * no byte outside the string (FNV-1a a byte at a time was a twentieth of
 * counting words). */
static inline uint64_t ppy_hash_mum(uint64_t a, uint64_t b) {
  __uint128_t r = (__uint128_t)a * b;
  return (uint64_t)r ^ (uint64_t)(r >> 64);
}
static inline uint64_t ppy_hash_r8(const unsigned char* p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}
static inline uint64_t ppy_hash_r4(const unsigned char* p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

PPY_RT_INTERNAL uint64_t ppy_hash_bytes(const unsigned char* p, int64_t n) {
  const uint64_t s0 = 0xa0761d6478bd642fULL, s1 = 0xe7037ed1a0b428dbULL;
  uint64_t seed = 0x8ebc6af09c88c6e3ULL, a, b;
  if (n <= 16) {
    if (n >= 4) {
      int64_t m = (n >> 3) << 2;
      a = (ppy_hash_r4(p) << 32) | ppy_hash_r4(p + m);
      b = (ppy_hash_r4(p + n - 4) << 32) | ppy_hash_r4(p + n - 4 - m);
    } else if (n > 0) {
      a = ((uint64_t)p[0] << 16) | ((uint64_t)p[n >> 1] << 8) | p[n - 1];
      b = 0;
    } else {
      a = b = 0;
    }
  } else {
    int64_t i = n;
    for (; i > 16; i -= 16, p += 16) seed = ppy_hash_mum(ppy_hash_r8(p) ^ s1, ppy_hash_r8(p + 8) ^ seed);
    a = ppy_hash_r8(p + i - 16); /* the last 16 bytes, overlapping what was folded */
    b = ppy_hash_r8(p + i - 8);
  }
  __uint128_t r = (__uint128_t)(a ^ s1) * (b ^ seed);
  return ppy_hash_mum((uint64_t)r ^ s0 ^ (uint64_t)n, (uint64_t)(r >> 64) ^ s1);
}

/** Equal strs hash alike (typical: a word a split handed out has its hash
 * remembered, ppy_words.h). */
static inline uint64_t ppy_hash_str(const ppy_str* s) { return ppy_words_hash(s); }

/** speedrt: a key of up to 16 bytes compares as two overlapping words (or its
 * bytes), with no call of memcmp (a twentieth of counting words). */
static inline int ppy_str_same(const ppy_str* a, const ppy_str* b) {
  if (a == b) return 1;
  int64_t n = a->len;
  if (n != b->len) return 0;
  const unsigned char* x = (const unsigned char*)PPY_STR_BYTES(a);
  const unsigned char* y = (const unsigned char*)PPY_STR_BYTES(b);
  if (n >= 8 && n <= 16) return ppy_hash_r8(x) == ppy_hash_r8(y) && ppy_hash_r8(x + n - 8) == ppy_hash_r8(y + n - 8);
  if (n >= 4 && n < 8) return ppy_hash_r4(x) == ppy_hash_r4(y) && ppy_hash_r4(x + n - 4) == ppy_hash_r4(y + n - 4);
  if (n < 4) {
    for (int64_t i = 0; i < n; ++i)
      if (x[i] != y[i]) return 0;
    return 1;
  }
  return memcmp(x, y, (size_t)n) == 0;
}

/** A tuple box's hash: its `n` leaves' (each by its descriptor, after the `(`), combined in order. */
static uint64_t ppy_hash_tuple(const int64_t* w, int64_t n, const char* dsc) {
  uint64_t h = 0x27d4eb2f165667c5ULL;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t e = dsc[1 + i] == 's' ? ppy_hash_str((const ppy_str*)(intptr_t)w[i]) : ppy_hash_i64(w[i]);
    h = (h ^ e) * 0x100000001b3ULL;
    h = (h << 31) | (h >> 33);
  }
  return ppy_hash_i64((int64_t)h);
}

/** What a table's keys are: the probe is compiled once for each. */
enum { PPY_KEYS_INT, PPY_KEYS_STR, PPY_KEYS_TUPLE };

static inline int ppy_dict_keys_kind(const ppy_dict* d) {
  return d->str_keys ? PPY_KEYS_STR : d->tup_keys ? PPY_KEYS_TUPLE : PPY_KEYS_INT;
}

/** An int key hashes to itself, as CPython's (speedrt: the perturbation below
 * reaches the high bits; consecutive keys fill consecutive slots). */
static uint64_t ppy_dict_hash(const ppy_dict* d, int64_t k) {
  if (d->obj_keys) return ((uint64_t)k >> 4) | ((uint64_t)k << 60); /* an address, as CPython's: rotated by 4 */
  if (d->tup_keys) return ppy_hash_tuple((const int64_t*)(intptr_t)k, d->tup_keys, PPY_STR_BYTES(d->desc));
  return d->str_keys ? ppy_hash_str((const ppy_str*)(intptr_t)k) : (uint64_t)k;
}

static inline int ppy_dict_same(const ppy_dict* d, const ppy_dict_entry* e, int64_t k, uint64_t h, int kind) {
  if (e->key == k) return 1;
  if (kind == PPY_KEYS_INT || e->hash != h) return 0;
  if (kind == PPY_KEYS_STR) {
    if (!ppy_str_same((const ppy_str*)(intptr_t)e->key, (const ppy_str*)(intptr_t)k)) return 0;
    /* typical: the entry takes the handle it was asked with. A split hands out
     * one handle per word while its cache holds the word (ppy_words.h); a word
     * the cache let go comes back with another, and the key kept the old one,
     * so every later lookup compared the bytes of both (a sixth of counting
     * words). Equal strs are interchangeable (their identity cannot be seen). */
    ((ppy_dict_entry*)e)->key = k; /* every table lives on the collector, never in constant memory */
    return 1;
  }
  const int64_t* a = (const int64_t*)(intptr_t)e->key;
  const int64_t* b = (const int64_t*)(intptr_t)k;
  const char* dsc = PPY_STR_BYTES(d->desc);
  for (int64_t i = 0; i < d->tup_keys; ++i) {
    if (a[i] == b[i]) continue;
    if (dsc[1 + i] != 's' || !ppy_str_same((const ppy_str*)(intptr_t)a[i], (const ppy_str*)(intptr_t)b[i])) return 0;
  }
  return 1;
}

/** A fresh index table of `slots` (a power of two) and room for 2/3 as many entries. */
static void ppy_dict_alloc(ppy_dict* d, int64_t slots) {
  if (slots > PPY_LIST_MAX) ppy_rt_raise("MemoryError", "");
  d->last_valid = 0;
  d->index = (int32_t*)GC_MALLOC_ATOMIC((size_t)slots * sizeof(int32_t));
  int64_t cap = slots * 2 / 3;
  size_t bytes = (size_t)cap * sizeof(ppy_dict_entry);
  d->e = (ppy_dict_entry*)(d->scanned ? GC_MALLOC(bytes) : GC_MALLOC_ATOMIC(bytes));
  if (!d->index || !d->e) ppy_rt_raise("MemoryError", "");
  memset(d->index, 0xff, (size_t)slots * sizeof(int32_t)); /* all PPY_DICT_EMPTY */
  d->mask = slots - 1;
  d->cap = cap;
  d->n = 0;
}

/** The index slot of key `k` (hash `h`): its entry's, or the empty one where it would go. */
static inline __attribute__((always_inline)) int64_t ppy_dict_probe(const ppy_dict* d, int64_t k, uint64_t h,
                                                                    int64_t* found, int kind) {
  uint64_t perturb = h;
  uint64_t i = h & (uint64_t)d->mask;
  int64_t free_slot = -1;
  for (;;) {
    int64_t ix = d->index[i];
    if (ix == PPY_DICT_EMPTY) {
      *found = -1;
      return free_slot >= 0 ? free_slot : (int64_t)i;
    }
    if (ix == PPY_DICT_DUMMY) {
      if (free_slot < 0) free_slot = (int64_t)i;
    } else if (ppy_dict_same(d, &d->e[ix], k, h, kind)) {
      *found = ix;
      return (int64_t)i;
    }
    perturb >>= 5;
    i = (i * 5 + perturb + 1) & (uint64_t)d->mask;
  }
}

static int64_t ppy_dict_slot(const ppy_dict* d, int64_t k, uint64_t h, int64_t* found) {
  switch (ppy_dict_keys_kind(d)) {
    case PPY_KEYS_INT:
      return ppy_dict_probe(d, k, h, found, PPY_KEYS_INT);
    case PPY_KEYS_STR:
      return ppy_dict_probe(d, k, h, found, PPY_KEYS_STR);
    default:
      return ppy_dict_probe(d, k, h, found, PPY_KEYS_TUPLE);
  }
}

/** Remembers the probe of `k` for the next call with the same key (ppy_dict.h). */
static inline void ppy_dict_remember(const ppy_dict* d, int64_t k, uint64_t h, int64_t slot, int64_t found) {
  ppy_dict* m = (ppy_dict*)d;   /* every table lives on the collector, never in constant memory */
  m->last_valid = !d->tup_keys; /* a tuple's box is made anew for each call */
  m->last_key = k;
  m->last_hash = h;
  m->last_slot = slot;
  m->last_ix = found;
}

static int64_t ppy_dict_find(const ppy_dict* d, int64_t k) {
  if (d->cset) return ppy_cset_find(d, k);
  if (d->dense) return (uint64_t)k < (uint64_t)d->n ? k : -1; /* speedrt2 */
  if (d->last_valid && d->last_key == k) return d->last_ix;
  int64_t found;
  uint64_t h = ppy_dict_hash(d, k);
  int64_t slot = ppy_dict_slot(d, k, h, &found);
  ppy_dict_remember(d, k, h, slot, found);
  return found;
}

/** Makes the table anew for the live entries (in their order) and room to grow. */
static void ppy_dict_resize(ppy_dict* d) {
  ppy_dict_entry* old = d->e;
  int64_t n = d->n;
  int64_t slots = 8;
  while (slots * 2 / 3 <= d->used * 2) slots *= 2;
  ppy_dict_alloc(d, slots);
  for (int64_t j = 0; j < n; ++j) {
    if (!old[j].live) continue;
    uint64_t perturb = old[j].hash, i = old[j].hash & (uint64_t)d->mask;
    while (d->index[i] != PPY_DICT_EMPTY) {
      perturb >>= 5;
      i = (i * 5 + perturb + 1) & (uint64_t)d->mask;
    }
    d->index[i] = (int32_t)d->n;
    d->e[d->n++] = old[j];
  }
}

/** The entry of key `k`, made (its value zero, at the end of the order) when there is none. */
static ppy_dict_entry* ppy_dict_entry_for(ppy_dict* d, int64_t k) {
  if (d->cset) {
    ppy_cset_add(d, k);
    return NULL;
  }
  if (d->dense) { /* speedrt2: an existing key is its entry; a new one other than the next breaks the pattern */
    if ((uint64_t)k < (uint64_t)d->n) return &d->e[k];
    if (k != d->n) d->dense = 0;
  }
  uint64_t h;
  int64_t found, slot;
  if (d->last_valid && d->last_key == k) {
    if (d->last_ix >= 0) return &d->e[d->last_ix];
    h = d->last_hash;
    slot = d->last_slot;
  } else {
    h = ppy_dict_hash(d, k);
    slot = ppy_dict_slot(d, k, h, &found);
    if (found >= 0) {
      ppy_dict_remember(d, k, h, slot, found);
      return &d->e[found];
    }
  }
  if (d->n == d->cap) {
    ppy_dict_resize(d);
    slot = ppy_dict_slot(d, k, h, &found);
  }
  ppy_dict_entry* e = &d->e[d->n];
  e->hash = h;
  e->key = k;
  e->value = 0;
  e->live = 1;
  d->index[slot] = (int32_t)d->n;
  ppy_dict_remember(d, k, h, slot, d->n);
  d->n++;
  d->used++;
  return e;
}

/* stdlib: a Counter's count of `k`, a new entry of 0 when missing: one lookup per counted word. */
PPY_RT_INTERNAL int64_t* ppy_dict_count_slot(ppy_dict* d, int64_t k) { return &ppy_dict_entry_for(d, k)->value; }

static void ppy_dict_delete(ppy_dict* d, int64_t ix) {
  if (d->cset) { /* a dummy */
    d->e[ix].live = -1;
    d->e[ix].key = 0;
    d->used--;
    return;
  }
  int64_t found;
  int64_t slot = ppy_dict_slot(d, d->e[ix].key, d->e[ix].hash, &found);
  d->last_valid = 0;
  d->dense = 0; /* speedrt2 */
  d->index[slot] = PPY_DICT_DUMMY;
  d->e[ix].live = 0;
  d->e[ix].key = 0;
  d->e[ix].value = 0;
  d->used--;
}

/** Appends Python's repr of a key or value `v` whose descriptor is `dsc`. */
static void ppy_dict_repr_item(ppy_text* t, int64_t v, const char* dsc) {
  char buf[40];
  switch (dsc[0]) {
    case 'i':
      ppy_text_add(t, buf, (size_t)snprintf(buf, sizeof buf, "%lld", (long long)v));
      break;
    case 'f': {
      double f;
      memcpy(&f, &v, sizeof f);
      ppy_text_add(t, buf, (size_t)ppy_format_f64(f, buf));
      break;
    }
    case 'b':
      if (v)
        ppy_text_add(t, "True", 4);
      else
        ppy_text_add(t, "False", 5);
      break;
    case 's': {
      const ppy_str* r = ppy_str_repr((const ppy_str*)(intptr_t)v);
      ppy_text_add(t, PPY_STR_BYTES(r), (size_t)r->len);
      break;
    }
    case '(': /* a tuple key's or value's box (issue 32: a value's may hold lists, optionals...) */
      ppy_slot_repr_into(t, &v, dsc);
      break;
    case 'o': /* an object: the repr the frontend computed (ppy_list_repr_objs), else a KeyError's placeholder */
      if (ppy_obj_subst(t, v)) break;
      ppy_text_add(t, buf, (size_t)snprintf(buf, sizeof buf, "<object at %p>", (void*)(intptr_t)v));
      break;
    case '{': { /* a dict or set value prints by its own descriptor (issue 32) */
      const ppy_str* r = ppy_dict_repr((const void*)(intptr_t)v, NULL);
      ppy_text_add(t, PPY_STR_BYTES(r), (size_t)r->len);
      break;
    }
    default:
      ppy_list_repr_into(t, (const ppy_list*)(intptr_t)v, dsc + 1);
      break;
  }
}

static PPY_RT_NORETURN void ppy_dict_key_error(const ppy_dict* d, int64_t k) {
  ppy_text t = {NULL, 0, 0};
  ppy_dict_repr_item(&t, k, PPY_STR_BYTES(d->desc));
  ppy_text_add(&t, "", 1);
  ppy_rt_raise("KeyError", t.b);
}

static int64_t ppy_dict_lookup(const ppy_dict* d, int64_t k) {
  int64_t ix = ppy_dict_find(d, k);
  if (PPY_RT_UNLIKELY(ix < 0)) {
    if (d->flavor == PPY_DICT_DEFAULT || d->flavor == PPY_DICT_COUNTER)  // stdlib: __missing__
      return ppy_collections_missing((ppy_dict*)d, k);
    ppy_dict_key_error(d, k);
  }
  return d->e[ix].value;
}

static int64_t ppy_dict_pop_at(ppy_dict* d, int64_t k, int64_t dflt, int has_default) {
  int64_t ix = ppy_dict_find(d, k);
  if (ix < 0) {
    if (!has_default) ppy_dict_key_error(d, k);
    return dflt;
  }
  int64_t v = d->e[ix].value;
  ppy_dict_delete(d, ix);
  return v;
}

static int64_t ppy_f2w(double f) {
  int64_t w;
  memcpy(&w, &f, sizeof w);
  return w;
}
static double ppy_w2f(int64_t w) {
  double f;
  memcpy(&f, &w, sizeof f);
  return f;
}
#define PPY_P2W(p) ((int64_t)(intptr_t)(p))
#define PPY_W2P(w) ((void*)(intptr_t)(w))

/** An empty dict (`K:V`) or set (`K`) as `desc` says (ppy_dict.h). */
PPY_RT_API void* ppy_dict_new(const ppy_str* desc) {
  if (PPY_RT_UNLIKELY(!ppy_rt_gc_ready)) ppy_rt_gc_init();
  ppy_dict* d = (ppy_dict*)GC_MALLOC(sizeof(ppy_dict));
  if (!d) ppy_rt_raise("MemoryError", "");
  const char* s = PPY_STR_BYTES(desc);
  const char* colon = strchr(s, ':');
  d->desc = desc;
  d->str_keys = s[0] == 's';
  d->tup_keys = s[0] == '(' ? (int64_t)(strchr(s, ')') - s) - 1 : 0;
  d->obj_keys = s[0] == 'o';
  d->is_set = colon == NULL;
  d->scanned = d->str_keys || d->tup_keys || d->obj_keys ||
               (colon && (colon[1] == 's' || colon[1] == '[' || colon[1] == '{' || colon[1] == '('));
  d->used = 0;
  d->cset = d->is_set && s[0] == 'i';
  d->dense = !d->str_keys && !d->tup_keys && !d->obj_keys && !d->cset; /* speedrt2: no key yet */
  if (d->cset)
    ppy_cset_alloc(d, 8);
  else
    ppy_dict_alloc(d, 8);
  return d;
}

PPY_RT_API int64_t ppy_dict_len(const void* d) { return ((const ppy_dict*)d)->used; }

PPY_RT_API int64_t ppy_dict_contains_i64(const void* d, int64_t k) { return ppy_dict_find((const ppy_dict*)d, k) >= 0; }
PPY_RT_API int64_t ppy_dict_contains_ptr(const void* d, const void* k) {
  return ppy_dict_find((const ppy_dict*)d, PPY_P2W(k)) >= 0;
}

/* d[k]: KeyError (the key's repr) when it is not there. */
PPY_RT_API int64_t ppy_dict_get_i64_i64(const void* d, int64_t k) { return ppy_dict_lookup((const ppy_dict*)d, k); }
PPY_RT_API double ppy_dict_get_i64_f64(const void* d, int64_t k) {
  return ppy_w2f(ppy_dict_lookup((const ppy_dict*)d, k));
}
PPY_RT_API void* ppy_dict_get_i64_ptr(const void* d, int64_t k) {
  return PPY_W2P(ppy_dict_lookup((const ppy_dict*)d, k));
}
PPY_RT_API int64_t ppy_dict_get_ptr_i64(const void* d, const void* k) {
  return ppy_dict_lookup((const ppy_dict*)d, PPY_P2W(k));
}
PPY_RT_API double ppy_dict_get_ptr_f64(const void* d, const void* k) {
  return ppy_w2f(ppy_dict_lookup((const ppy_dict*)d, PPY_P2W(k)));
}
PPY_RT_API void* ppy_dict_get_ptr_ptr(const void* d, const void* k) {
  return PPY_W2P(ppy_dict_lookup((const ppy_dict*)d, PPY_P2W(k)));
}

/* d.get(k, default). */
static int64_t ppy_dict_get_or(const ppy_dict* d, int64_t k, int64_t dflt) {
  int64_t ix = ppy_dict_find(d, k);
  return ix < 0 ? dflt : d->e[ix].value;
}
PPY_RT_API int64_t ppy_dict_get_or_i64_i64(const void* d, int64_t k, int64_t dflt) {
  return ppy_dict_get_or((const ppy_dict*)d, k, dflt);
}
PPY_RT_API double ppy_dict_get_or_i64_f64(const void* d, int64_t k, double dflt) {
  return ppy_w2f(ppy_dict_get_or((const ppy_dict*)d, k, ppy_f2w(dflt)));
}
PPY_RT_API void* ppy_dict_get_or_i64_ptr(const void* d, int64_t k, void* dflt) {
  return PPY_W2P(ppy_dict_get_or((const ppy_dict*)d, k, PPY_P2W(dflt)));
}
PPY_RT_API int64_t ppy_dict_get_or_ptr_i64(const void* d, const void* k, int64_t dflt) {
  return ppy_dict_get_or((const ppy_dict*)d, PPY_P2W(k), dflt);
}
PPY_RT_API double ppy_dict_get_or_ptr_f64(const void* d, const void* k, double dflt) {
  return ppy_w2f(ppy_dict_get_or((const ppy_dict*)d, PPY_P2W(k), ppy_f2w(dflt)));
}
PPY_RT_API void* ppy_dict_get_or_ptr_ptr(const void* d, const void* k, void* dflt) {
  return PPY_W2P(ppy_dict_get_or((const ppy_dict*)d, PPY_P2W(k), PPY_P2W(dflt)));
}

/* d.pop(k): KeyError when it is not there; d.pop(k, default). */
PPY_RT_API int64_t ppy_dict_pop_i64_i64(void* d, int64_t k) { return ppy_dict_pop_at((ppy_dict*)d, k, 0, 0); }
PPY_RT_API double ppy_dict_pop_i64_f64(void* d, int64_t k) { return ppy_w2f(ppy_dict_pop_at((ppy_dict*)d, k, 0, 0)); }
PPY_RT_API void* ppy_dict_pop_i64_ptr(void* d, int64_t k) { return PPY_W2P(ppy_dict_pop_at((ppy_dict*)d, k, 0, 0)); }
PPY_RT_API int64_t ppy_dict_pop_ptr_i64(void* d, const void* k) {
  return ppy_dict_pop_at((ppy_dict*)d, PPY_P2W(k), 0, 0);
}
PPY_RT_API double ppy_dict_pop_ptr_f64(void* d, const void* k) {
  return ppy_w2f(ppy_dict_pop_at((ppy_dict*)d, PPY_P2W(k), 0, 0));
}
PPY_RT_API void* ppy_dict_pop_ptr_ptr(void* d, const void* k) {
  return PPY_W2P(ppy_dict_pop_at((ppy_dict*)d, PPY_P2W(k), 0, 0));
}
PPY_RT_API int64_t ppy_dict_pop_or_i64_i64(void* d, int64_t k, int64_t dflt) {
  return ppy_dict_pop_at((ppy_dict*)d, k, dflt, 1);
}
PPY_RT_API double ppy_dict_pop_or_i64_f64(void* d, int64_t k, double dflt) {
  return ppy_w2f(ppy_dict_pop_at((ppy_dict*)d, k, ppy_f2w(dflt), 1));
}
PPY_RT_API void* ppy_dict_pop_or_i64_ptr(void* d, int64_t k, void* dflt) {
  return PPY_W2P(ppy_dict_pop_at((ppy_dict*)d, k, PPY_P2W(dflt), 1));
}
PPY_RT_API int64_t ppy_dict_pop_or_ptr_i64(void* d, const void* k, int64_t dflt) {
  return ppy_dict_pop_at((ppy_dict*)d, PPY_P2W(k), dflt, 1);
}
PPY_RT_API double ppy_dict_pop_or_ptr_f64(void* d, const void* k, double dflt) {
  return ppy_w2f(ppy_dict_pop_at((ppy_dict*)d, PPY_P2W(k), ppy_f2w(dflt), 1));
}
PPY_RT_API void* ppy_dict_pop_or_ptr_ptr(void* d, const void* k, void* dflt) {
  return PPY_W2P(ppy_dict_pop_at((ppy_dict*)d, PPY_P2W(k), PPY_P2W(dflt), 1));
}

/* d[k] = v: an existing key keeps its place in the order. */
PPY_RT_API void ppy_dict_set_i64_i64(void* d, int64_t k, int64_t v) { ppy_dict_entry_for((ppy_dict*)d, k)->value = v; }
PPY_RT_API void ppy_dict_set_i64_f64(void* d, int64_t k, double v) {
  ppy_dict_entry_for((ppy_dict*)d, k)->value = ppy_f2w(v);
}
PPY_RT_API void ppy_dict_set_i64_ptr(void* d, int64_t k, void* v) {
  ppy_dict_entry_for((ppy_dict*)d, k)->value = PPY_P2W(v);
}
PPY_RT_API void ppy_dict_set_ptr_i64(void* d, const void* k, int64_t v) {
  ppy_dict_entry_for((ppy_dict*)d, PPY_P2W(k))->value = v;
}
PPY_RT_API void ppy_dict_set_ptr_f64(void* d, const void* k, double v) {
  ppy_dict_entry_for((ppy_dict*)d, PPY_P2W(k))->value = ppy_f2w(v);
}
PPY_RT_API void ppy_dict_set_ptr_ptr(void* d, const void* k, void* v) {
  ppy_dict_entry_for((ppy_dict*)d, PPY_P2W(k))->value = PPY_P2W(v);
}

/** A new list of the keys (`which` 0) or values (1), in insertion order: what a loop walks. */
static ppy_list* ppy_dict_column(const ppy_dict* d, int which) {
  const char* s = PPY_STR_BYTES(d->desc);
  const char* vd = which ? strchr(s, ':') + 1 : NULL;
  int scanned = which ? (vd[0] == 's' || vd[0] == '[' || vd[0] == '{' || vd[0] == '(')
                      : (int)(d->str_keys || d->tup_keys || d->obj_keys);
  ppy_list* l = ppy_list_make(d->used, scanned);
  int64_t* out = (int64_t*)l->data;
  int64_t k = 0;
  for (int64_t j = 0, end = d->cset ? d->cap : d->n; j < end; ++j)
    if (d->e[j].live == 1) out[k++] = which ? d->e[j].value : d->e[j].key;
  return l;
}
PPY_RT_API ppy_list* ppy_dict_keys(const void* d) { return ppy_dict_column((const ppy_dict*)d, 0); }
PPY_RT_API ppy_list* ppy_dict_values(const void* d) { return ppy_dict_column((const ppy_dict*)d, 1); }

/** A loop's step over `d`, begun when it held `n` entries: RuntimeError when that changed, as Python's iterators. */
PPY_RT_API void ppy_dict_check_iter(const void* d, int64_t n) {
  const ppy_dict* t = (const ppy_dict*)d;
  if (PPY_RT_UNLIKELY(t->used != n))
    ppy_rt_raise("RuntimeError",
                 t->is_set ? "Set changed size during iteration" : "dictionary changed size during iteration");
}

/** Python's repr: `{'a': 1}`, `{}`, `{1, 2}`, `set()` (`desc` is the table's own; the python backend reads it). */
PPY_RT_API ppy_str* ppy_dict_repr(const void* dp, const ppy_str* desc) {
  const ppy_dict* d = (const ppy_dict*)dp;
  (void)desc;
  if (d->flavor != PPY_DICT_PLAIN) return ppy_collections_repr(d);  // stdlib: defaultdict(...), Counter(...)
  return ppy_dict_braces(d);
}

PPY_RT_INTERNAL ppy_str* ppy_dict_braces(const ppy_dict* d) {
  if (d->is_set && d->used == 0) return ppy_str_make("set()", 5);
  const char* s = PPY_STR_BYTES(d->desc);
  const char* vd = d->is_set ? NULL : strchr(s, ':') + 1;
  ppy_text t = {NULL, 0, 0};
  ppy_text_add(&t, "{", 1);
  int first = 1;
  for (int64_t j = 0, end = d->cset ? d->cap : d->n; j < end; ++j) {
    if (d->e[j].live != 1) continue;
    if (!first) ppy_text_add(&t, ", ", 2);
    first = 0;
    ppy_dict_repr_item(&t, d->e[j].key, s);
    if (vd) {
      ppy_text_add(&t, ": ", 2);
      ppy_dict_repr_item(&t, d->e[j].value, vd);
    }
  }
  ppy_text_add(&t, "}", 1);
  return ppy_str_make(t.b, (int64_t)t.n);
}

/** `a == b`: the same keys, each with an equal value (order does not count). */
PPY_RT_API int64_t ppy_dict_eq(const void* ap, const void* bp) {
  const ppy_dict* a = (const ppy_dict*)ap;
  const ppy_dict* b = (const ppy_dict*)bp;
  if (a == b) return 1;
  if (a->used != b->used) return 0;
  const char* vd = a->is_set ? NULL : strchr(PPY_STR_BYTES(a->desc), ':') + 1;
  for (int64_t j = 0, end = a->cset ? a->cap : a->n; j < end; ++j) {
    if (a->e[j].live != 1) continue;
    int64_t ix = ppy_dict_find(b, a->e[j].key);
    if (ix < 0) return 0;
    if (!vd) continue;
    int64_t x = a->e[j].value, y = b->e[ix].value;
    switch (vd[0]) {
      case 'f':
        if (!(ppy_w2f(x) == ppy_w2f(y))) return 0;
        break;
      case 's':
        if (ppy_str_compare((const ppy_str*)PPY_W2P(x), (const ppy_str*)PPY_W2P(y)) != 0) return 0;
        break;
      case '[':
        if (!ppy_list_eq_at((const ppy_list*)PPY_W2P(x), (const ppy_list*)PPY_W2P(y), vd + 1)) return 0;
        break;
      case '{':
        if (!ppy_dict_eq(PPY_W2P(x), PPY_W2P(y))) return 0;
        break;
      case '(': /* a tuple value's box: its leaves (issue 32) */
        if (!ppy_slots_eq(&x, &y, vd)) return 0;
        break;
      default:
        if (x != y) return 0;
    }
  }
  return 1;
}

PPY_RT_API void ppy_dict_clear(void* dp) {
  ppy_dict* d = (ppy_dict*)dp;
  d->used = 0;
  d->dense = !d->str_keys && !d->tup_keys && !d->obj_keys && !d->cset; /* speedrt2 */
  if (d->cset)
    ppy_cset_alloc(d, 8);
  else
    ppy_dict_alloc(d, 8);
}

/* Sets: add, remove (KeyError when missing), discard. */
PPY_RT_API void ppy_set_add_i64(void* s, int64_t k) { ppy_dict_entry_for((ppy_dict*)s, k); }
PPY_RT_API void ppy_set_add_ptr(void* s, const void* k) { ppy_dict_entry_for((ppy_dict*)s, PPY_P2W(k)); }
PPY_RT_API void ppy_set_remove_i64(void* s, int64_t k) { ppy_dict_pop_at((ppy_dict*)s, k, 0, 0); }
PPY_RT_API void ppy_set_remove_ptr(void* s, const void* k) { ppy_dict_pop_at((ppy_dict*)s, PPY_P2W(k), 0, 0); }
PPY_RT_API void ppy_set_discard_i64(void* s, int64_t k) { ppy_dict_pop_at((ppy_dict*)s, k, 0, 1); }
PPY_RT_API void ppy_set_discard_ptr(void* s, const void* k) { ppy_dict_pop_at((ppy_dict*)s, PPY_P2W(k), 0, 1); }

PPY_RT_API int64_t ppy_hash_int(int64_t v) {
  const uint64_t modulus = (1ULL << 61) - 1; /* CPython's _PyHASH_MODULUS */
  uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  int64_t h = (int64_t)(a % modulus);
  if (v < 0) h = -h;
  return h == -1 ? -2 : h;
}

PPY_RT_API int64_t ppy_hash_text(const ppy_str* s) {
  int64_t h = (int64_t)ppy_hash_str(s);
  return h == -1 ? -2 : h;
}

PPY_RT_API int64_t ppy_hash_lanes(const ppy_list* lanes) {
  const uint64_t p1 = 11400714785074694791ULL, p2 = 14029467366897019727ULL, p5 = 2870177450012600261ULL;
  const int64_t* w = (const int64_t*)lanes->data;
  uint64_t acc = p5;
  for (int64_t i = 0; i < lanes->len; ++i) {
    acc += (uint64_t)w[i] * p2;
    acc = (acc << 31) | (acc >> 33);
    acc *= p1;
  }
  acc += (uint64_t)lanes->len ^ (p5 ^ 3527539ULL);
  return acc == (uint64_t)-1 ? 1546275796 : (int64_t)acc;
}

#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */
