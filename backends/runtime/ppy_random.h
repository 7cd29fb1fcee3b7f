/* ppy_random.h: the `random` module (docs/stdlib.md, "random"; docs/runtime.md,
 * "random"): CPython's Mersenne Twister (MT19937) and the algorithms of its
 * random.py over it, so `random.seed(42)` and then any sequence of calls gives
 * python3's values, bit for bit. One generator per process, as the module's
 * hidden instance; a program that never seeds it is seeded from the OS.
 *
 * Compiled only with PPY_RT_STRINGS: choice, shuffle, sample and choices take
 * and give lists, and the generator lives beside them.
 */
#ifndef PPY_RANDOM_H
#define PPY_RANDOM_H

#include "ppy_runtime.h"

#ifdef PPY_RT_STRINGS

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ppy_list ppy_list; /* ppy_list.h */

/** `random.seed(n)`: init_by_array over the 32-bit words of abs(n), as CPython. */
PPY_RT_API void ppy_random_seed(int64_t n);
/** `random.seed()`: from the OS's entropy, as CPython's seed(None). */
PPY_RT_API void ppy_random_seed_os(void);
/** `random.random()`: 53 bits, in [0.0, 1.0). */
PPY_RT_API double ppy_random_random(void);
/** `random.getrandbits(k)`; a result past 63 bits raises OverflowError. */
PPY_RT_API int64_t ppy_random_getrandbits(int64_t k);
/** `random.randrange(stop)`. */
PPY_RT_API int64_t ppy_random_randrange1(int64_t stop);
/** `random.randrange(start, stop[, step])`. */
PPY_RT_API int64_t ppy_random_randrange(int64_t start, int64_t stop, int64_t step);
/** `random.randint(a, b)`: randrange(a, b + 1). */
PPY_RT_API int64_t ppy_random_randint(int64_t a, int64_t b);
/** The index `random.choice` takes of a sequence of `n` items (IndexError when
 * empty). */
PPY_RT_API int64_t ppy_random_choice_index(int64_t n);
/** `random.shuffle(x)`, in place. */
PPY_RT_API void ppy_random_shuffle(ppy_list* x);
/** `random.sample(population, k)`: a new list, CPython's pool or set method. */
PPY_RT_API ppy_list* ppy_random_sample(const ppy_list* population, int64_t k);
/** `random.choices(population, k=k)`. */
PPY_RT_API ppy_list* ppy_random_choices(const ppy_list* population, int64_t k);
/** `random.choices(population, weights, k=k)` of int weights (_wi) or float
 * weights (_wf); `cum_weights=` of ints (_ci) or floats (_cf). */
PPY_RT_API ppy_list* ppy_random_choices_wi(const ppy_list* population, const ppy_list* weights, int64_t k);
PPY_RT_API ppy_list* ppy_random_choices_wf(const ppy_list* population, const ppy_list* weights, int64_t k);
PPY_RT_API ppy_list* ppy_random_choices_ci(const ppy_list* population, const ppy_list* cum_weights, int64_t k);
PPY_RT_API ppy_list* ppy_random_choices_cf(const ppy_list* population, const ppy_list* cum_weights, int64_t k);
/** `random.uniform(a, b)`: a + (b - a) * random(). */
PPY_RT_API double ppy_random_uniform(double a, double b);
/** `random.gauss(mu, sigma)`: Box-Muller, the second value kept for the next
 * call (forgotten by seed), as CPython. */
PPY_RT_API double ppy_random_gauss(double mu, double sigma);
/** `random.expovariate(lambd)`. */
PPY_RT_API double ppy_random_expovariate(double lambd);

#ifdef __cplusplus
}
#endif

#endif /* PPY_RT_STRINGS */

#endif /* PPY_RANDOM_H */
