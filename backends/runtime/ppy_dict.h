/* ppy_dict.h: dicts and sets of the native runtime (docs/runtime.md, "Dicts and sets").
 *
 * Compiled only with PPY_RT_STRINGS defined: it uses the strings' lists,
 * texts and reprs.
 *
 * A dict is a handle (`ptr<i8>` on the IR) to a compact insertion-ordered hash
 * table on the collector, as CPython's: an index table of 2^k slots (each the
 * number of an entry, -1 empty, -2 a deleted one) and an array of entries
 * {hash, key, value, live} in insertion order. A set is the same table whose
 * entries have no value; a set of ints is CPython's own set table instead
 * (ppy_set.c). Keys are ints (`i`), strs (`s`) or tuples of those (`(is)`, as
 * the box a list holds a tuple in: ppy_list_box of ppy_list.h, its leaves in
 * order); a key or value travels as the 8 bytes of its i64, f64 or handle.
 *
 * The table's descriptor, given at its making, says what it holds: `K:V` for a
 * dict (K the key's descriptor, V the value's, as a list's element descriptor
 * of ppy_list.h: `i` `f` `b` `s` `[...`), `K` alone for a set.
 */
#ifndef PPY_DICT_H
#define PPY_DICT_H

#include "ppy_str.h"

#ifdef PPY_RT_STRINGS

#ifdef __cplusplus
extern "C" {
#endif

PPY_RT_API void* ppy_dict_new(const ppy_str* desc);
PPY_RT_API int64_t ppy_dict_len(const void* d);
PPY_RT_API int64_t ppy_dict_contains_i64(const void* d, int64_t k);
PPY_RT_API int64_t ppy_dict_contains_ptr(const void* d, const void* k);
PPY_RT_API int64_t ppy_dict_get_i64_i64(const void* d, int64_t k);
PPY_RT_API double ppy_dict_get_i64_f64(const void* d, int64_t k);
PPY_RT_API void* ppy_dict_get_i64_ptr(const void* d, int64_t k);
PPY_RT_API int64_t ppy_dict_get_ptr_i64(const void* d, const void* k);
PPY_RT_API double ppy_dict_get_ptr_f64(const void* d, const void* k);
PPY_RT_API void* ppy_dict_get_ptr_ptr(const void* d, const void* k);
PPY_RT_API int64_t ppy_dict_get_or_i64_i64(const void* d, int64_t k, int64_t dflt);
PPY_RT_API double ppy_dict_get_or_i64_f64(const void* d, int64_t k, double dflt);
PPY_RT_API void* ppy_dict_get_or_i64_ptr(const void* d, int64_t k, void* dflt);
PPY_RT_API int64_t ppy_dict_get_or_ptr_i64(const void* d, const void* k, int64_t dflt);
PPY_RT_API double ppy_dict_get_or_ptr_f64(const void* d, const void* k, double dflt);
PPY_RT_API void* ppy_dict_get_or_ptr_ptr(const void* d, const void* k, void* dflt);
PPY_RT_API int64_t ppy_dict_pop_i64_i64(void* d, int64_t k);
PPY_RT_API double ppy_dict_pop_i64_f64(void* d, int64_t k);
PPY_RT_API void* ppy_dict_pop_i64_ptr(void* d, int64_t k);
PPY_RT_API int64_t ppy_dict_pop_ptr_i64(void* d, const void* k);
PPY_RT_API double ppy_dict_pop_ptr_f64(void* d, const void* k);
PPY_RT_API void* ppy_dict_pop_ptr_ptr(void* d, const void* k);
PPY_RT_API int64_t ppy_dict_pop_or_i64_i64(void* d, int64_t k, int64_t dflt);
PPY_RT_API double ppy_dict_pop_or_i64_f64(void* d, int64_t k, double dflt);
PPY_RT_API void* ppy_dict_pop_or_i64_ptr(void* d, int64_t k, void* dflt);
PPY_RT_API int64_t ppy_dict_pop_or_ptr_i64(void* d, const void* k, int64_t dflt);
PPY_RT_API double ppy_dict_pop_or_ptr_f64(void* d, const void* k, double dflt);
PPY_RT_API void* ppy_dict_pop_or_ptr_ptr(void* d, const void* k, void* dflt);
PPY_RT_API void ppy_dict_set_i64_i64(void* d, int64_t k, int64_t v);
PPY_RT_API void ppy_dict_set_i64_f64(void* d, int64_t k, double v);
PPY_RT_API void ppy_dict_set_i64_ptr(void* d, int64_t k, void* v);
PPY_RT_API void ppy_dict_set_ptr_i64(void* d, const void* k, int64_t v);
PPY_RT_API void ppy_dict_set_ptr_f64(void* d, const void* k, double v);
PPY_RT_API void ppy_dict_set_ptr_ptr(void* d, const void* k, void* v);
PPY_RT_API ppy_list* ppy_dict_keys(const void* d);
PPY_RT_API ppy_list* ppy_dict_values(const void* d);
PPY_RT_API void ppy_dict_check_iter(const void* d, int64_t n);
PPY_RT_API ppy_str* ppy_dict_repr(const void* d, const ppy_str* desc);
PPY_RT_API int64_t ppy_dict_eq(const void* a, const void* b);
PPY_RT_API void ppy_dict_clear(void* d);
PPY_RT_API void ppy_set_add_i64(void* s, int64_t k);
PPY_RT_API void ppy_set_add_ptr(void* s, const void* k);
PPY_RT_API void ppy_set_remove_i64(void* s, int64_t k);
PPY_RT_API void ppy_set_remove_ptr(void* s, const void* k);
PPY_RT_API void ppy_set_discard_i64(void* s, int64_t k);
PPY_RT_API void ppy_set_discard_ptr(void* s, const void* k);
/** hash() (issue 32): Python's value of an int (and so of a bool), and of a
 * tuple from its elements' hashes (`lanes`, CPython's xxHash-style combine);
 * a str's is this runtime's own (CPython's changes from run to run). */
PPY_RT_API int64_t ppy_hash_int(int64_t v);
PPY_RT_API int64_t ppy_hash_text(const ppy_str* s);
PPY_RT_API int64_t ppy_hash_lanes(const ppy_list* lanes);

/** The dict and set functions compiled code may call, for a JIT's symbol table. */
/* clang-format off */
#define PPY_DICT_SYMBOLS(X)                                                                                     \
  X(ppy_dict_new) X(ppy_dict_len) X(ppy_dict_contains_i64) X(ppy_dict_contains_ptr)                            \
  X(ppy_dict_get_i64_i64) X(ppy_dict_get_i64_f64) X(ppy_dict_get_i64_ptr) X(ppy_dict_get_ptr_i64)              \
  X(ppy_dict_get_ptr_f64) X(ppy_dict_get_ptr_ptr) X(ppy_dict_get_or_i64_i64) X(ppy_dict_get_or_i64_f64)        \
  X(ppy_dict_get_or_i64_ptr) X(ppy_dict_get_or_ptr_i64) X(ppy_dict_get_or_ptr_f64) X(ppy_dict_get_or_ptr_ptr)  \
  X(ppy_dict_pop_i64_i64) X(ppy_dict_pop_i64_f64) X(ppy_dict_pop_i64_ptr) X(ppy_dict_pop_ptr_i64)              \
  X(ppy_dict_pop_ptr_f64) X(ppy_dict_pop_ptr_ptr) X(ppy_dict_pop_or_i64_i64) X(ppy_dict_pop_or_i64_f64)        \
  X(ppy_dict_pop_or_i64_ptr) X(ppy_dict_pop_or_ptr_i64) X(ppy_dict_pop_or_ptr_f64) X(ppy_dict_pop_or_ptr_ptr)  \
  X(ppy_dict_set_i64_i64) X(ppy_dict_set_i64_f64) X(ppy_dict_set_i64_ptr) X(ppy_dict_set_ptr_i64)              \
  X(ppy_dict_set_ptr_f64) X(ppy_dict_set_ptr_ptr) X(ppy_dict_keys) X(ppy_dict_values) X(ppy_dict_check_iter)  \
  X(ppy_dict_repr) X(ppy_dict_eq) X(ppy_dict_clear) X(ppy_set_add_i64) X(ppy_set_add_ptr)                      \
  X(ppy_set_remove_i64) X(ppy_set_remove_ptr) X(ppy_set_discard_i64) X(ppy_set_discard_ptr)                  \
  X(ppy_hash_int) X(ppy_hash_text) X(ppy_hash_lanes)
/* clang-format on */

#ifndef PPY_RT_DECLARATIONS_ONLY
/* Shared between ppy_dict.c and ppy_set.c. */

typedef struct ppy_dict_entry {
  uint64_t hash;
  int64_t key;   /* an int, or a str handle */
  int64_t value; /* the 8 bytes of an i64, f64 or handle; unused in a set */
  int64_t live;  /* 0 once popped or removed */
} ppy_dict_entry;

typedef struct ppy_dict {
  int64_t used; /* live entries: len() */
  int64_t n;    /* entries made, live or not */
  int64_t cap;  /* room for entries: 2/3 of the index table */
  int64_t mask; /* index table slots - 1 */
  int32_t* index; /* speedrt: 4 bytes a slot (entries stay under 2^31: PPY_LIST_MAX) */
  ppy_dict_entry* e;
  const ppy_str* desc;
  int64_t str_keys; /* keys are str handles */
  int64_t tup_keys; /* keys are tuple boxes: this many leaves (0: not tuples) */
  int64_t is_set;
  int64_t cset;    /* a set of ints kept as CPython keeps it (ppy_set.c): e is its slot table, n its fill */
  int64_t scanned; /* keys or values are handles: the entries are scanned */
  int64_t flavor;  /* stdlib (ppy_collections.c): PPY_DICT_PLAIN, or what collections class it is */
  int64_t factory; /* a defaultdict's default_factory (ppy_collections.h) */
  /* speedrt: the last int or str key looked up (a handle kept alive here, so
   * the same handle is the same key) and what the probe found: its entry, or
   * -1 and the index slot where it would go. `counts[w] = counts.get(w, 0) + 1`
   * and `if w not in d: d[w] = ...` probe once. Valid until the index changes
   * (any other key's insertion, a deletion, a resize, clear). */
  int64_t last_valid;
  int64_t last_key;
  int64_t last_ix;
  int64_t last_slot;
  uint64_t last_hash;
  /* speedrt2: the keys are the ints 0, 1, 2... in entry order, none deleted
   * (a dict used as an array): d[k] is entry k, found without the index. */
  int64_t dense;
  /* issue 32: keys are objects (`o`), hashed and compared by identity; the
   * frontend hands over one object for each class of equal ones (a class with
   * __eq__ and __hash__ hashes through ppy code of its module). */
  int64_t obj_keys;
} ppy_dict;

/** d[k] of a missing key of a defaultdict (the factory's value, stored) or a
 * Counter (0, not stored): the value's word. */
PPY_RT_INTERNAL int64_t ppy_collections_missing(ppy_dict* d, int64_t k);
/** repr of a defaultdict, Counter or OrderedDict. */
PPY_RT_INTERNAL ppy_str* ppy_collections_repr(const ppy_dict* d);
/** The value word of key `k`, a new entry of 0 when missing (Counter's counting). */
PPY_RT_INTERNAL int64_t* ppy_dict_count_slot(ppy_dict* d, int64_t k);
/** The hash of the `n` bytes at `p` a dict gives a str (ppy_dict.c), reading none outside them. */
PPY_RT_INTERNAL uint64_t ppy_hash_bytes(const unsigned char* p, int64_t n);
/** `{k: v, ...}` of any dict, in its order (ppy_dict.c). */
PPY_RT_INTERNAL ppy_str* ppy_dict_braces(const ppy_dict* d);

/** A set of ints' slot table of `slots` (a power of two), empty. */
PPY_RT_INTERNAL void ppy_cset_alloc(ppy_dict* d, int64_t slots);
/** The slot holding `k`, or -1. */
PPY_RT_INTERNAL int64_t ppy_cset_find(const ppy_dict* d, int64_t k);
/** Adds `k` (nothing when it is there). */
PPY_RT_INTERNAL void ppy_cset_add(ppy_dict* d, int64_t k);
#endif /* PPY_RT_DECLARATIONS_ONLY */

#ifdef __cplusplus
}
#endif

#endif /* PPY_RT_STRINGS */

/* io (issue 33): the streams, files and the process, declared for whoever
 * reads the runtime ABI table through this header. */
#include "ppy_io.h"
#include "ppy_sys.h"
/* stdlib: random, time and collections, declared for the same readers. */
#include "ppy_collections.h"
#include "ppy_random.h"
#include "ppy_time.h"

#endif /* PPY_DICT_H */
