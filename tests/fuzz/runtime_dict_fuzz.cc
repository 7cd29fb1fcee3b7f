// Fuzzes the runtime's dicts and sets (backends/runtime/ppy_dict.c,
// ppy_set.c) with sequences of inserts, overwrites, pops, lookups and
// clears against a model (std::map plus the insertion order Python keeps):
// an int-keyed dict, a str-keyed dict and an int set side by side.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/fuzz_support.h"

using namespace ppy::fuzz;

namespace {

/// A dict as Python keeps it: values by key, keys in insertion order.
template <typename K>
struct Model {
  std::map<K, int64_t> values;
  std::vector<K> order;
  void set(const K& k, int64_t v) {
    if (!values.count(k)) order.push_back(k);
    values[k] = v;
  }
  void erase(const K& k) {
    values.erase(k);
    order.erase(std::find(order.begin(), order.end(), k));
  }
};

std::string key_text(FuzzedDataProvider& in) {
  // Few distinct short keys, so that lookups hit and overwrites happen.
  static const char* const kKeys[] = {"", "a", "b", "ab", "key", "\xc3\xa9t\xc3\xa9", "0", "a\nb", "'\""};
  if (in.ConsumeBool()) return kKeys[in.ConsumeIntegralInRange<size_t>(0, std::size(kKeys) - 1)];
  return valid_utf8(in.ConsumeRandomLengthString(6));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  begin_input();
  FuzzedDataProvider in(data, size);
  void* di = ppy_dict_new(S("i:i"));
  void* ds = ppy_dict_new(S("s:i"));
  void* set = ppy_dict_new(S("i"));
  Model<int64_t> mi;
  Model<std::string> ms;
  std::set<int64_t> mset;
  int steps = 0;
  while (in.remaining_bytes() > 0 && ++steps < 4000) {
    // Small keys collide in the table; the whole range checks the hashing.
    int64_t k = in.ConsumeBool() ? in.ConsumeIntegralInRange<int64_t>(-8, 40) : in.ConsumeIntegral<int64_t>();
    try {
      switch (in.ConsumeIntegralInRange<int>(0, 11)) {
        case 0:
        case 1:
        case 2: {
          int64_t v = in.ConsumeIntegral<int64_t>();
          ppy_dict_set_i64_i64(di, k, v);
          mi.set(k, v);
          break;
        }
        case 3: {
          bool present = mi.values.count(k) != 0;
          check((ppy_dict_contains_i64(di, k) != 0) == present, "in, key " + std::to_string(k));
          check(ppy_dict_get_or_i64_i64(di, k, -7) == (present ? mi.values[k] : -7), "get(k, d)");
          try {
            int64_t v = ppy_dict_get_i64_i64(di, k);
            check(present && v == mi.values[k], "d[k] of key " + std::to_string(k));
          } catch (const Raised& e) {
            check(!present && e.name == "KeyError" && e.message == std::to_string(k), "d[k] raised " + e.name);
          }
          break;
        }
        case 4: {
          bool present = mi.values.count(k) != 0;
          try {
            int64_t v = ppy_dict_pop_i64_i64(di, k);
            check(present && v == mi.values[k], "pop of key " + std::to_string(k));
            mi.erase(k);
          } catch (const Raised& e) {
            check(!present && e.name == "KeyError", "pop raised " + e.name);
          }
          break;
        }
        case 5: {
          std::string key = key_text(in);
          int64_t v = in.ConsumeIntegral<int64_t>();
          ppy_dict_set_ptr_i64(ds, S(key), v);  // a fresh handle: keys compare by value
          ms.set(key, v);
          break;
        }
        case 6: {
          std::string key = key_text(in);
          bool present = ms.values.count(key) != 0;
          check((ppy_dict_contains_ptr(ds, S(key)) != 0) == present, "in, key '" + key + "'");
          if (in.ConsumeBool()) {
            check(ppy_dict_pop_or_ptr_i64(ds, S(key), -7) == (present ? ms.values[key] : -7), "pop(k, d)");
            if (present) ms.erase(key);
          } else {
            try {
              check(ppy_dict_get_ptr_i64(ds, S(key)) == ms.values.at(key), "d[k] of key '" + key + "'");
            } catch (const Raised& e) {
              check(!present && e.name == "KeyError", "d[k] raised " + e.name);
            } catch (const std::out_of_range&) {
              broken("d[k] answered for a missing key '" + key + "'");
            }
          }
          break;
        }
        case 7: {
          ppy_set_add_i64(set, k);
          mset.insert(k);
          break;
        }
        case 8: {
          if (in.ConsumeBool()) {
            ppy_set_discard_i64(set, k);
            mset.erase(k);
          } else {
            try {
              ppy_set_remove_i64(set, k);
              check(mset.erase(k) == 1, "set.remove of a missing " + std::to_string(k));
            } catch (const Raised& e) {
              check(!mset.count(k) && e.name == "KeyError", "set.remove raised " + e.name);
            }
          }
          check((ppy_dict_contains_i64(set, k) != 0) == (mset.count(k) != 0), "in set");
          break;
        }
        case 9: {
          // Keys and values in insertion order, and the reprs.
          ppy_list* keys = ppy_dict_keys(di);
          ppy_list* values = ppy_dict_values(di);
          check(ppy_list_len(keys) == static_cast<int64_t>(mi.order.size()), "len(keys())");
          for (size_t i = 0; i < mi.order.size(); ++i) {
            check(PPY_LIST_I64(keys)[i] == mi.order[i], "keys() order at " + std::to_string(i));
            check(PPY_LIST_I64(values)[i] == mi.values[mi.order[i]], "values() at " + std::to_string(i));
          }
          ppy_list* skeys = ppy_dict_keys(ds);
          check(ppy_list_len(skeys) == static_cast<int64_t>(ms.order.size()), "len(keys()) of the str dict");
          for (size_t i = 0; i < ms.order.size(); ++i)
            check(T(reinterpret_cast<ppy_str**>(PPY_LIST_I64(skeys))[i]) == ms.order[i], "str keys() order");
          check_str(ppy_dict_repr(di, S("i:i")), "repr");
          check_str(ppy_dict_repr(ds, S("s:i")), "repr");
          check_str(ppy_dict_repr(set, S("i")), "set repr");
          check(ppy_dict_eq(di, di) != 0, "d == d");
          break;
        }
        case 10: {
          ppy_dict_clear(in.ConsumeBool() ? di : ds);
          if (ppy_dict_len(di) == 0) mi = {};
          if (ppy_dict_len(ds) == 0) ms = {};
          break;
        }
        default: {
          try {
            ppy_dict_check_iter(di, static_cast<int64_t>(mi.order.size()));
          } catch (const Raised& e) {
            broken("a loop over an unchanged dict raised " + e.name);
          }
          break;
        }
      }
    } catch (const Raised& e) {
      broken("raised " + e.name + ": " + e.message);
    }
    check(ppy_dict_len(di) == static_cast<int64_t>(mi.values.size()), "len of the int dict");
    check(ppy_dict_len(ds) == static_cast<int64_t>(ms.values.size()), "len of the str dict");
    check(ppy_dict_len(set) == static_cast<int64_t>(mset.size()), "len of the set");
  }
  return 0;
}
