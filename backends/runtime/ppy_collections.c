/* ppy_collections.c: defaultdict, Counter and OrderedDict over the runtime's
 * dicts (ppy_collections.h). */
#include "ppy_collections.h"

#include "ppy_dict.h"
#include "ppy_list.h"
#include "ppy_str.h"

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)

#include <stdio.h>
#include <string.h>

/** The class name Python shows for a dict of `flavor`. */
static const char* ppy_collections_name(int64_t flavor) {
  switch (flavor) {
    case PPY_DICT_DEFAULT:
      return "defaultdict";
    case PPY_DICT_COUNTER:
      return "Counter";
    case PPY_DICT_ORDERED:
      return "OrderedDict";
    default:
      return "dict";
  }
}

/** AttributeError unless `d` is of `flavor`, as Python's for a method the
 * object's class lacks. */
static void ppy_collections_need(const ppy_dict* d, int64_t flavor, const char* method) {
  if (d->flavor == flavor) return;
  char m[160];
  snprintf(m, sizeof m, "'%s' object has no attribute '%s'", ppy_collections_name(d->flavor), method);
  ppy_raise_copied("AttributeError", m);
}

PPY_RT_API void* ppy_collections_new(const ppy_str* desc, int64_t flavor, int64_t factory) {
  ppy_dict* d = (ppy_dict*)ppy_dict_new(desc);
  d->flavor = flavor;
  d->factory = factory;
  return d;
}

/** The value descriptor of a dict (after its `:`). */
static const char* ppy_collections_value_desc(const ppy_dict* d) { return strchr(PPY_STR_BYTES(d->desc), ':') + 1; }

PPY_RT_INTERNAL int64_t ppy_collections_missing(ppy_dict* d, int64_t k) {
  if (d->flavor == PPY_DICT_COUNTER) return 0;
  int64_t v = 0;
  switch (d->factory) {
    case 3:
      v = (int64_t)(intptr_t)ppy_str_make("", 0);
      break;
    case 4: {
      char e = ppy_collections_value_desc(d)[1];
      v = (int64_t)(intptr_t)ppy_list_make(0, !(e == 'i' || e == 'f' || e == 'b'));
      break;
    }
    default:
      v = 0;
      break; /* int 0, float 0.0 (all bits zero), bool False */
  }
  ppy_dict_set_i64_i64(d, k, v);
  return v;
}

/** Entries' indices of a dict by value descending, ties in insertion order
 * (a stable merge sort of the live entries). */
static int64_t* ppy_counter_order(const ppy_dict* d, int64_t* count) {
  int64_t n = 0;
  int64_t* ix = (int64_t*)GC_MALLOC_ATOMIC((size_t)(d->used + 1) * 8);
  int64_t* tmp = (int64_t*)GC_MALLOC_ATOMIC((size_t)(d->used + 1) * 8);
  if (!ix || !tmp) ppy_rt_raise("MemoryError", "");
  for (int64_t j = 0; j < d->n; ++j)
    if (d->e[j].live == 1) ix[n++] = j;
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      int64_t a = lo, b = mid, o = lo;
      while (a < mid && b < hi) tmp[o++] = d->e[ix[b]].value > d->e[ix[a]].value ? ix[b++] : ix[a++];
      while (a < mid) tmp[o++] = ix[a++];
      while (b < hi) tmp[o++] = ix[b++];
    }
    int64_t* t = ix;
    ix = tmp;
    tmp = t;
  }
  *count = n;
  return ix;
}

/** A (key, count) box: the key's leaves (a tuple key's, flattened), then the count. */
static void* ppy_counter_pair(const ppy_dict* d, const ppy_dict_entry* e) {
  int64_t leaves = d->tup_keys ? d->tup_keys : 1;
  int64_t* box = (int64_t*)ppy_list_box(leaves + 1);
  if (d->tup_keys)
    memcpy(box, (const void*)(intptr_t)e->key, (size_t)leaves * 8);
  else
    box[0] = e->key;
  box[leaves] = e->value;
  return box;
}

PPY_RT_API ppy_list* ppy_counter_most_common(const void* cp, int64_t n) {
  const ppy_dict* d = (const ppy_dict*)cp;
  ppy_collections_need(d, PPY_DICT_COUNTER, "most_common");
  int64_t count;
  int64_t* ix = ppy_counter_order(d, &count);
  if (n < 0) n = 0;
  if (n > count) n = count;
  ppy_list* out = ppy_list_make(n, 1);
  for (int64_t i = 0; i < n; ++i) ((void**)out->data)[i] = ppy_counter_pair(d, &d->e[ix[i]]);
  return out;
}

PPY_RT_API ppy_list* ppy_counter_most_common_all(const void* c) { return ppy_counter_most_common(c, INT64_MAX); }

/** Adds `by` to the count of key word `k`. */
static void ppy_counter_add(ppy_dict* d, int64_t k, int64_t by) {
  int64_t* count = ppy_dict_count_slot(d, k);
  int64_t sum;
  if (__builtin_add_overflow(*count, by, &sum)) ppy_rt_raise("OverflowError", "integer overflow");
  *count = sum;
}

PPY_RT_API void ppy_counter_update_list(void* c, const ppy_list* xs) {
  ppy_dict* d = (ppy_dict*)c;
  ppy_collections_need(d, PPY_DICT_COUNTER, "update");
  for (int64_t i = 0; i < xs->len; ++i) ppy_counter_add(d, PPY_LIST_I64(xs)[i], 1);
}

PPY_RT_API void ppy_counter_subtract_list(void* c, const ppy_list* xs) {
  ppy_dict* d = (ppy_dict*)c;
  ppy_collections_need(d, PPY_DICT_COUNTER, "subtract");
  for (int64_t i = 0; i < xs->len; ++i) ppy_counter_add(d, PPY_LIST_I64(xs)[i], -1);
}

PPY_RT_API void ppy_counter_update_str(void* c, const ppy_str* s) {
  ppy_dict* d = (ppy_dict*)c;
  ppy_collections_need(d, PPY_DICT_COUNTER, "update");
  const unsigned char* b = (const unsigned char*)PPY_STR_BYTES(s);
  int64_t n = s->len;
  for (int64_t i = 0; i < n;) {
    int64_t w = b[i] < 0x80 ? 1 : b[i] < 0xE0 ? 2 : b[i] < 0xF0 ? 3 : 4;
    if (i + w > n) w = n - i;
    ppy_counter_add(d, (int64_t)(intptr_t)ppy_str_make((const char*)b + i, w), 1);
    i += w;
  }
}

PPY_RT_API void ppy_counter_update_counter(void* c, const void* other) {
  ppy_dict* d = (ppy_dict*)c;
  const ppy_dict* o = (const ppy_dict*)other;
  ppy_collections_need(d, PPY_DICT_COUNTER, "update");
  for (int64_t j = 0, end = o->n; j < end; ++j)
    if (o->e[j].live == 1) ppy_counter_add(d, o->e[j].key, o->e[j].value);
}

PPY_RT_API int64_t ppy_counter_total(const void* c) {
  const ppy_dict* d = (const ppy_dict*)c;
  ppy_collections_need(d, PPY_DICT_COUNTER, "total");
  int64_t sum = 0;
  for (int64_t j = 0; j < d->n; ++j)
    if (d->e[j].live == 1 && __builtin_add_overflow(sum, d->e[j].value, &sum))
      ppy_rt_raise("OverflowError", "integer overflow");
  return sum;
}

/** Moves key word `k` to the end (last) or the front of an OrderedDict. */
static void ppy_odict_move(ppy_dict* d, int64_t k, int64_t last) {
  ppy_collections_need(d, PPY_DICT_ORDERED, "move_to_end");
  int64_t v = ppy_dict_pop_i64_i64(d, k); /* KeyError of the key when missing */
  if (last) {
    ppy_dict_set_i64_i64(d, k, v);
    return;
  }
  /* To the front: the key first, then every other entry in its order. */
  int64_t n = d->used, at = 0;
  int64_t* keys = (int64_t*)GC_MALLOC((size_t)(n + 1) * 16);
  if (!keys) ppy_rt_raise("MemoryError", "");
  for (int64_t j = 0; j < d->n; ++j)
    if (d->e[j].live == 1) {
      keys[at++] = d->e[j].key;
      keys[at++] = d->e[j].value;
    }
  ppy_dict_clear(d);
  ppy_dict_set_i64_i64(d, k, v);
  for (int64_t i = 0; i < at; i += 2) ppy_dict_set_i64_i64(d, keys[i], keys[i + 1]);
}

PPY_RT_API void ppy_odict_move_to_end_i64(void* d, int64_t key, int64_t last) {
  ppy_odict_move((ppy_dict*)d, key, last);
}
PPY_RT_API void ppy_odict_move_to_end_ptr(void* d, const void* key, int64_t last) {
  ppy_odict_move((ppy_dict*)d, (int64_t)(intptr_t)key, last);
}

static int64_t ppy_odict_end(const ppy_dict* d, int64_t last) {
  if (d->used == 0) ppy_rt_raise("KeyError", "'dictionary is empty'");
  if (last) {
    for (int64_t j = d->n - 1; j >= 0; --j)
      if (d->e[j].live == 1) return d->e[j].key;
  }
  for (int64_t j = 0; j < d->n; ++j)
    if (d->e[j].live == 1) return d->e[j].key;
  return 0;
}

PPY_RT_API int64_t ppy_odict_end_key_i64(const void* d, int64_t last) {
  return ppy_odict_end((const ppy_dict*)d, last);
}
PPY_RT_API void* ppy_odict_end_key_ptr(const void* d, int64_t last) {
  return (void*)(intptr_t)ppy_odict_end((const ppy_dict*)d, last);
}

PPY_RT_INTERNAL ppy_str* ppy_collections_repr(const ppy_dict* d) {
  ppy_text t = {NULL, 0, 0};
  const char* name = ppy_collections_name(d->flavor);
  ppy_text_add(&t, name, strlen(name));
  ppy_text_add(&t, "(", 1);
  if (d->flavor == PPY_DICT_DEFAULT) {
    static const char* const factories[] = {"None",          "<class 'int'>",  "<class 'float'>",
                                            "<class 'str'>", "<class 'list'>", "<class 'bool'>"};
    const char* f = d->factory >= 0 && d->factory <= 5 ? factories[d->factory] : "None";
    ppy_text_add(&t, f, strlen(f));
    ppy_text_add(&t, ", ", 2);
  }
  if (d->used > 0 || d->flavor == PPY_DICT_DEFAULT) {
    const ppy_dict* shown = d;
    if (d->flavor == PPY_DICT_COUNTER) { /* most common first */
      int64_t count;
      int64_t* ix = ppy_counter_order(d, &count);
      ppy_dict* sorted = (ppy_dict*)ppy_dict_new(d->desc);
      for (int64_t i = 0; i < count; ++i) ppy_dict_set_i64_i64(sorted, d->e[ix[i]].key, d->e[ix[i]].value);
      shown = sorted;
    }
    if (d->flavor == PPY_DICT_ORDERED) { /* python3.11: OrderedDict([(k, v), ...]) */
      ppy_text_add(&t, "[", 1);
      /* Each item as `(k, v)`: rendered as a one-entry dict `{k: v}`, split
       * at the ": " after the key (outside quotes and brackets). */
      int first = 1;
      for (int64_t j = 0; j < d->n; ++j) {
        if (d->e[j].live != 1) continue;
        ppy_dict* one = (ppy_dict*)ppy_dict_new(d->desc);
        ppy_dict_set_i64_i64(one, d->e[j].key, d->e[j].value);
        ppy_str* item = ppy_dict_braces(one);
        const char* b = PPY_STR_BYTES(item);
        int64_t len = item->len;
        int64_t split = -1;
        char quote = 0;
        int depth = 0;
        for (int64_t i = 1; i + 1 < len; ++i) {
          char ch = b[i];
          if (quote) {
            if (ch == '\\')
              ++i;
            else if (ch == quote)
              quote = 0;
          } else if (ch == '\'' || ch == '"')
            quote = ch;
          else if (ch == '(' || ch == '[' || ch == '{')
            ++depth;
          else if (ch == ')' || ch == ']' || ch == '}')
            --depth;
          else if (depth == 0 && ch == ':' && b[i + 1] == ' ') {
            split = i;
            break;
          }
        }
        if (!first) ppy_text_add(&t, ", ", 2);
        first = 0;
        ppy_text_add(&t, "(", 1);
        ppy_text_add(&t, b + 1, (size_t)(split - 1));
        ppy_text_add(&t, ", ", 2);
        ppy_text_add(&t, b + split + 2, (size_t)(len - split - 3));
        ppy_text_add(&t, ")", 1);
      }
      ppy_text_add(&t, "]", 1);
    } else {
      ppy_str* body = ppy_dict_braces(shown);
      ppy_text_add(&t, PPY_STR_BYTES(body), (size_t)body->len);
    }
  }
  ppy_text_add(&t, ")", 1);
  return ppy_str_make(t.b, (int64_t)t.n);
}

#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */
