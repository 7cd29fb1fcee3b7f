/* ppy_random.c: the `random` module (ppy_random.h): MT19937 as CPython's
 * _randommodule.c, and random.py's algorithms over it. */
#include "ppy_random.h"

#include "ppy_list.h"
#include "ppy_str.h"

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define PPY_RANDOM_N 624
#define PPY_RANDOM_M 397

/* The generator: MT19937's state, and gauss's kept second value. */
static struct {
  uint32_t mt[PPY_RANDOM_N];
  int index; /* the next word of mt; N: generate the next N first */
  int seeded;
  int has_gauss;
  double gauss_next;
} ppy_random_state;

static void ppy_random_init_genrand(uint32_t s) {
  uint32_t* mt = ppy_random_state.mt;
  mt[0] = s;
  for (int i = 1; i < PPY_RANDOM_N; ++i) mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
  ppy_random_state.index = PPY_RANDOM_N;
}

static void ppy_random_init_by_array(const uint32_t* key, size_t n) {
  uint32_t* mt = ppy_random_state.mt;
  ppy_random_init_genrand(19650218U);
  size_t i = 1, j = 0;
  for (size_t k = PPY_RANDOM_N > n ? PPY_RANDOM_N : n; k; --k) {
    mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
    ++i;
    ++j;
    if (i >= PPY_RANDOM_N) {
      mt[0] = mt[PPY_RANDOM_N - 1];
      i = 1;
    }
    if (j >= n) j = 0;
  }
  for (size_t k = PPY_RANDOM_N - 1; k; --k) {
    mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
    ++i;
    if (i >= PPY_RANDOM_N) {
      mt[0] = mt[PPY_RANDOM_N - 1];
      i = 1;
    }
  }
  mt[0] = 0x80000000U;
  ppy_random_state.seeded = 1;
  ppy_random_state.has_gauss = 0;
}

PPY_RT_API void ppy_random_seed(int64_t n) {
  uint64_t a = n < 0 ? 0 - (uint64_t)n : (uint64_t)n;
  uint32_t key[2] = {(uint32_t)a, (uint32_t)(a >> 32)};
  ppy_random_init_by_array(key, key[1] ? 2 : 1);
}

PPY_RT_API void ppy_random_seed_os(void) {
  uint32_t key[PPY_RANDOM_N];
  size_t got = 0;
  FILE* f = fopen("/dev/urandom", "rb"); /* ISO C only: the runtime compiles as -std=c11 */
  if (f) {
    got = fread(key, 1, sizeof key, f);
    fclose(f);
  }
  if (got < sizeof key) { /* no entropy source: the time and an address, as CPython's fallback */
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    key[0] = (uint32_t)ts.tv_sec;
    key[1] = (uint32_t)ts.tv_nsec;
    key[2] = (uint32_t)(uintptr_t)&ts;
    got = 3 * sizeof(uint32_t);
  }
  ppy_random_init_by_array(key, got / sizeof(uint32_t));
}

static uint32_t ppy_random_u32(void) {
  static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
  uint32_t* mt = ppy_random_state.mt;
  if (PPY_RT_UNLIKELY(!ppy_random_state.seeded)) ppy_random_seed_os();
  if (ppy_random_state.index >= PPY_RANDOM_N) {
    int kk;
    uint32_t y;
    for (kk = 0; kk < PPY_RANDOM_N - PPY_RANDOM_M; ++kk) {
      y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
      mt[kk] = mt[kk + PPY_RANDOM_M] ^ (y >> 1) ^ mag01[y & 0x1U];
    }
    for (; kk < PPY_RANDOM_N - 1; ++kk) {
      y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
      mt[kk] = mt[kk + (PPY_RANDOM_M - PPY_RANDOM_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
    }
    y = (mt[PPY_RANDOM_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
    mt[PPY_RANDOM_N - 1] = mt[PPY_RANDOM_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
    ppy_random_state.index = 0;
  }
  uint32_t y = mt[ppy_random_state.index++];
  y ^= (y >> 11);
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= (y >> 18);
  return y;
}

PPY_RT_API double ppy_random_random(void) {
  uint32_t a = ppy_random_u32() >> 5, b = ppy_random_u32() >> 6;
  return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/** getrandbits(k) for 0 <= k <= 64, as CPython's: 32-bit words from the
 * least significant, the last one's top bits. */
static uint64_t ppy_random_bits(int k) {
  if (k == 0) return 0;
  if (k <= 32) return ppy_random_u32() >> (32 - k);
  uint64_t lo = ppy_random_u32();
  uint64_t hi = ppy_random_u32() >> (64 - k);
  return lo | (hi << 32);
}

/** A number in [0, n), n > 0: _randbelow_with_getrandbits. */
static uint64_t ppy_random_below(uint64_t n) {
  int k = 64 - __builtin_clzll(n);
  uint64_t r = ppy_random_bits(k);
  while (r >= n) r = ppy_random_bits(k);
  return r;
}

PPY_RT_API int64_t ppy_random_getrandbits(int64_t k) {
  if (k < 0) ppy_rt_raise("ValueError", "number of bits must be non-negative");
  if (k > 64) ppy_rt_raise("OverflowError", "integer overflow");
  uint64_t r = ppy_random_bits((int)k);
  if (r > (uint64_t)INT64_MAX) ppy_rt_raise("OverflowError", "integer overflow");
  return (int64_t)r;
}

PPY_RT_API int64_t ppy_random_randrange1(int64_t stop) {
  if (stop <= 0) ppy_rt_raise("ValueError", "empty range for randrange()");
  return (int64_t)ppy_random_below((uint64_t)stop);
}

PPY_RT_API int64_t ppy_random_randrange(int64_t start, int64_t stop, int64_t step) {
  __int128 width = (__int128)stop - start;
  if (step == 1) {
    if (width <= 0) {
      char m[128];
      snprintf(m, sizeof m, "empty range for randrange() (%lld, %lld, %lld)", (long long)start, (long long)stop,
               (long long)width);
      ppy_raise_copied("ValueError", m);
    }
    return (int64_t)((__int128)start + ppy_random_below((uint64_t)width));
  }
  if (step == 0) ppy_rt_raise("ValueError", "zero step for randrange()");
  __int128 n = step > 0 ? width + step - 1 : width + step + 1;
  /* Python's floor division */
  __int128 q = n / step;
  if ((n % step != 0) && ((n < 0) != (step < 0))) --q;
  if (q <= 0) ppy_rt_raise("ValueError", "empty range for randrange()");
  __int128 r = (__int128)start + (__int128)step * (__int128)ppy_random_below((uint64_t)q);
  return (int64_t)r;
}

PPY_RT_API int64_t ppy_random_randint(int64_t a, int64_t b) {
  __int128 width = (__int128)b + 1 - a;
  if (width <= 0) {
    char m[128];
    snprintf(m, sizeof m, "empty range for randrange() (%lld, %lld, %lld)", (long long)a, (long long)((__int128)b + 1),
             (long long)width);
    ppy_raise_copied("ValueError", m);
  }
  if (width > (__int128)UINT64_MAX) ppy_rt_raise("OverflowError", "integer overflow");
  return (int64_t)((__int128)a + ppy_random_below((uint64_t)width));
}

PPY_RT_API int64_t ppy_random_choice_index(int64_t n) {
  if (n <= 0) ppy_rt_raise("IndexError", "Cannot choose from an empty sequence");
  return (int64_t)ppy_random_below((uint64_t)n);
}

PPY_RT_API void ppy_random_shuffle(ppy_list* x) {
  int64_t* v = PPY_LIST_I64(x);
  for (int64_t i = x->len - 1; i >= 1; --i) {
    int64_t j = (int64_t)ppy_random_below((uint64_t)i + 1);
    int64_t t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
}

/** A list of `n` slots of the same kind as `like`'s (scanned or not). */
static ppy_list* ppy_random_list_like(const ppy_list* like, int64_t n) { return ppy_list_make(n, (int)like->scanned); }

PPY_RT_API ppy_list* ppy_random_sample(const ppy_list* population, int64_t k) {
  int64_t n = population->len;
  if (k < 0 || k > n) ppy_rt_raise("ValueError", "Sample larger than population or is negative");
  ppy_list* result = ppy_random_list_like(population, k);
  int64_t* out = PPY_LIST_I64(result);
  const int64_t* pop = PPY_LIST_I64(population);
  int64_t setsize = 21;
  if (k > 5) setsize += (int64_t)pow(4.0, ceil(log((double)(k * 3)) / log(4.0)));
  if (n <= setsize) {
    ppy_list* pool = ppy_random_list_like(population, n);
    int64_t* p = PPY_LIST_I64(pool);
    memcpy(p, pop, (size_t)n * 8);
    for (int64_t i = 0; i < k; ++i) {
      int64_t j = (int64_t)ppy_random_below((uint64_t)(n - i));
      out[i] = p[j];
      p[j] = p[n - i - 1];
    }
    return result;
  }
  /* The set of chosen indices: open addressing over a table twice k's size. */
  int64_t slots = 16;
  while (slots < 2 * k + 2) slots *= 2;
  ppy_list* table = ppy_list_make(slots, 0);
  int64_t* t = PPY_LIST_I64(table);
  for (int64_t s = 0; s < slots; ++s) t[s] = -1;
  for (int64_t i = 0; i < k; ++i) {
    for (;;) {
      int64_t j = (int64_t)ppy_random_below((uint64_t)n);
      int64_t s = (int64_t)(((uint64_t)j * 0x9E3779B97F4A7C15ULL) >> 7) & (slots - 1);
      while (t[s] != -1 && t[s] != j) s = (s + 1) & (slots - 1);
      if (t[s] == j) continue;
      t[s] = j;
      out[i] = pop[j];
      break;
    }
  }
  return result;
}

PPY_RT_API ppy_list* ppy_random_choices(const ppy_list* population, int64_t k) {
  if (k < 0) k = 0;
  ppy_list* result = ppy_random_list_like(population, k);
  int64_t* out = PPY_LIST_I64(result);
  double n = (double)population->len;
  for (int64_t i = 0; i < k; ++i) {
    int64_t j = (int64_t)floor(ppy_random_random() * n);
    if (j >= population->len) ppy_rt_raise("IndexError", "list index out of range");
    out[i] = PPY_LIST_I64(population)[j];
  }
  return result;
}

/** choices over cumulative weights `cum` (doubles, n of them): bisect_right of
 * random() * total in cum[0:n-1], as CPython's. */
static ppy_list* ppy_random_choices_cum(const ppy_list* population, const double* cum, int64_t n, int64_t k) {
  if (n != population->len) ppy_rt_raise("ValueError", "The number of weights does not match the population");
  if (n == 0) ppy_rt_raise("IndexError", "list index out of range");
  double total = cum[n - 1];
  if (!(total > 0.0)) {
    if (isnan(total)) ppy_rt_raise("ValueError", "Total of weights must be finite");
    ppy_rt_raise("ValueError", "Total of weights must be greater than zero");
  }
  if (!isfinite(total)) ppy_rt_raise("ValueError", "Total of weights must be finite");
  if (k < 0) k = 0;
  ppy_list* result = ppy_random_list_like(population, k);
  int64_t* out = PPY_LIST_I64(result);
  for (int64_t i = 0; i < k; ++i) {
    double x = ppy_random_random() * total;
    int64_t lo = 0, hi = n - 1;
    while (lo < hi) {
      int64_t mid = (lo + hi) / 2;
      if (x < cum[mid])
        hi = mid;
      else
        lo = mid + 1;
    }
    out[i] = PPY_LIST_I64(population)[lo];
  }
  return result;
}

/** The cumulative weights as doubles: accumulated (`accumulate`) or as given,
 * from ints or floats. Int sums are exact as Python's (below 2^53). */
static ppy_list* ppy_random_cum(const ppy_list* w, int accumulate, int floats) {
  ppy_list* c = ppy_list_make(w->len, 0);
  double* out = PPY_LIST_F64(c);
  int64_t isum = 0;
  double fsum = 0.0;
  for (int64_t i = 0; i < w->len; ++i) {
    if (floats) {
      double x = PPY_LIST_F64(w)[i];
      fsum = accumulate ? fsum + x : x;
      out[i] = fsum;
    } else {
      int64_t x = PPY_LIST_I64(w)[i];
      if (accumulate && __builtin_add_overflow(isum, x, &isum)) ppy_rt_raise("OverflowError", "integer overflow");
      if (!accumulate) isum = x;
      out[i] = (double)isum;
    }
  }
  return c;
}

PPY_RT_API ppy_list* ppy_random_choices_wi(const ppy_list* population, const ppy_list* weights, int64_t k) {
  ppy_list* c = ppy_random_cum(weights, 1, 0);
  return ppy_random_choices_cum(population, PPY_LIST_F64(c), c->len, k);
}
PPY_RT_API ppy_list* ppy_random_choices_wf(const ppy_list* population, const ppy_list* weights, int64_t k) {
  ppy_list* c = ppy_random_cum(weights, 1, 1);
  return ppy_random_choices_cum(population, PPY_LIST_F64(c), c->len, k);
}
PPY_RT_API ppy_list* ppy_random_choices_ci(const ppy_list* population, const ppy_list* cum_weights, int64_t k) {
  ppy_list* c = ppy_random_cum(cum_weights, 0, 0);
  return ppy_random_choices_cum(population, PPY_LIST_F64(c), c->len, k);
}
PPY_RT_API ppy_list* ppy_random_choices_cf(const ppy_list* population, const ppy_list* cum_weights, int64_t k) {
  return ppy_random_choices_cum(population, PPY_LIST_F64(cum_weights), cum_weights->len, k);
}

PPY_RT_API double ppy_random_uniform(double a, double b) { return a + (b - a) * ppy_random_random(); }

PPY_RT_API double ppy_random_gauss(double mu, double sigma) {
  double z;
  if (ppy_random_state.has_gauss) {
    z = ppy_random_state.gauss_next;
    ppy_random_state.has_gauss = 0;
  } else {
    double x2pi = ppy_random_random() * (2.0 * 3.141592653589793);
    double g2rad = sqrt(-2.0 * log(1.0 - ppy_random_random()));
    z = cos(x2pi) * g2rad;
    ppy_random_state.gauss_next = sin(x2pi) * g2rad;
    ppy_random_state.has_gauss = 1;
  }
  return mu + z * sigma;
}

PPY_RT_API double ppy_random_expovariate(double lambd) {
  double u = ppy_random_random();
  if (lambd == 0.0) ppy_rt_raise("ZeroDivisionError", "float division by zero");
  return -log(1.0 - u) / lambd;
}

#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */
