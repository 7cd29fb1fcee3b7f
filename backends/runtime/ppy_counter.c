/* ppy_counter.c: Counter's arithmetic and elements() (ppy_counter.h). */
#include "ppy_counter.h"

#include "ppy_dict.h"
#include "ppy_list.h"
#include "ppy_str.h"

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)

#include <stdio.h>
#include <string.h>

/** Whether `d`'s keys are handles (strs, tuple boxes) rather than ints. */
static int ppy_counter_ptr_keys(const ppy_dict* d) { return PPY_STR_BYTES(d->desc)[0] != 'i'; }

/** `d[k]`'s count, 0 when `k` is missing. */
static int64_t ppy_counter_get(const ppy_dict* d, int64_t k) {
  return ppy_counter_ptr_keys(d) ? ppy_dict_get_or_ptr_i64(d, (const void*)(intptr_t)k, 0)
                                 : ppy_dict_get_or_i64_i64(d, k, 0);
}

static int ppy_counter_has(const ppy_dict* d, int64_t k) {
  return (int)(ppy_counter_ptr_keys(d) ? ppy_dict_contains_ptr(d, (const void*)(intptr_t)k)
                                       : ppy_dict_contains_i64(d, k));
}

static void ppy_counter_put(ppy_dict* d, int64_t k, int64_t v) {
  if (ppy_counter_ptr_keys(d))
    ppy_dict_set_ptr_i64(d, (const void*)(intptr_t)k, v);
  else
    ppy_dict_set_i64_i64(d, k, v);
}

static int64_t ppy_counter_sum(int64_t a, int64_t b, int negate) {
  int64_t r;
  if (negate ? __builtin_sub_overflow(a, b, &r) : __builtin_add_overflow(a, b, &r)) ppy_rt_overflow();
  return r;
}

PPY_RT_API void* ppy_counter_binop(const void* ap, const void* bp, int64_t op) {
  static const char* const ops[] = {"+", "-", "|", "&"};
  const ppy_dict* a = (const ppy_dict*)ap;
  const ppy_dict* b = (const ppy_dict*)bp;
  ppy_list* ak = ppy_dict_keys(a);
  ppy_list* av = ppy_dict_values(a);
  ppy_list* bk = ppy_dict_keys(b);
  ppy_list* bv = ppy_dict_values(b);
  if (a->flavor != PPY_DICT_COUNTER || b->flavor != PPY_DICT_COUNTER) {
    if (op != 2) {
      char m[160];
      snprintf(m, sizeof m, "unsupported operand type(s) for %s: '%s' and '%s'", ops[op],
               a->flavor == PPY_DICT_COUNTER ? "Counter" : "dict", b->flavor == PPY_DICT_COUNTER ? "Counter" : "dict");
      ppy_raise_copied("TypeError", m);
    }
    ppy_dict* r = (ppy_dict*)ppy_dict_new(a->desc); /* dict | dict: a's entries, then b's over them */
    for (int64_t i = 0; i < ak->len; ++i) ppy_counter_put(r, PPY_LIST_I64(ak)[i], PPY_LIST_I64(av)[i]);
    for (int64_t i = 0; i < bk->len; ++i) ppy_counter_put(r, PPY_LIST_I64(bk)[i], PPY_LIST_I64(bv)[i]);
    return r;
  }
  ppy_dict* r = (ppy_dict*)ppy_collections_new(a->desc, PPY_DICT_COUNTER, 0);
  for (int64_t i = 0; i < ak->len; ++i) {
    int64_t k = PPY_LIST_I64(ak)[i], x = PPY_LIST_I64(av)[i], y = ppy_counter_get(b, k);
    int64_t n = op == 0   ? ppy_counter_sum(x, y, 0)
                : op == 1 ? ppy_counter_sum(x, y, 1)
                : op == 2 ? (x < y ? y : x)
                          : (x < y ? x : y);
    if (n > 0) ppy_counter_put(r, k, n);
  }
  if (op != 3)
    for (int64_t i = 0; i < bk->len; ++i) {
      int64_t k = PPY_LIST_I64(bk)[i], y = PPY_LIST_I64(bv)[i];
      if (ppy_counter_has(a, k)) continue;
      if (op == 1 && y < 0) ppy_counter_put(r, k, ppy_counter_sum(0, y, 1));
      if (op != 1 && y > 0) ppy_counter_put(r, k, y);
    }
  return r;
}

PPY_RT_API ppy_list* ppy_counter_elements(const void* cp) {
  const ppy_dict* c = (const ppy_dict*)cp;
  if (c->flavor != PPY_DICT_COUNTER) ppy_rt_raise("AttributeError", "'dict' object has no attribute 'elements'");
  ppy_list* ks = ppy_dict_keys(c);
  ppy_list* vs = ppy_dict_values(c);
  ppy_list* out = ppy_counter_ptr_keys(c) ? ppy_list_new_ptr(0) : ppy_list_new_i64(0);
  for (int64_t i = 0; i < ks->len; ++i)
    for (int64_t n = PPY_LIST_I64(vs)[i]; n > 0; --n) ppy_list_append_i64(out, PPY_LIST_I64(ks)[i]);
  return out;
}

#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */
