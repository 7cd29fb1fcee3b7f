// Fuzzes the runtime's lists (backends/runtime/ppy_list.c, ppy_value.c)
// against std::vector: appends, pops, inserts and removals with Python's
// index rules, slices, sorts, searches and sums, each list checked whole
// after every step.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/fuzz_support.h"

using namespace ppy::fuzz;

namespace {

void same(const ppy_list* l, const std::vector<int64_t>& m, const std::string& where) {
  check(ppy_list_len(l) == static_cast<int64_t>(m.size()),
        where + ": length " + std::to_string(ppy_list_len(l)) + ", the model's " + std::to_string(m.size()));
  for (size_t i = 0; i < m.size(); ++i) check(PPY_LIST_I64(l)[i] == m[i], where + ": element " + std::to_string(i));
}

std::vector<int64_t> slice(const std::vector<int64_t>& s, int64_t start, int64_t stop, int64_t step, int omitted) {
  int64_t n = static_cast<int64_t>(s.size());
  auto adjust = [&](int64_t v, bool absent, bool is_start) -> int64_t {
    if (absent) return step > 0 ? (is_start ? 0 : n) : (is_start ? n - 1 : -1);
    if (v < 0) {
      v += n;
      if (v < 0) v = step < 0 ? -1 : 0;
    } else if (v >= n) {
      v = step < 0 ? n - 1 : n;
    }
    return v;
  };
  int64_t lo = adjust(start, omitted & 1, true), hi = adjust(stop, omitted & 2, false);
  std::vector<int64_t> out;
  if (step > 0)
    for (int64_t i = lo; i < hi; i += step) out.push_back(s[static_cast<size_t>(i)]);
  else
    for (int64_t i = lo; i > hi; i += step) out.push_back(s[static_cast<size_t>(i)]);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  begin_input();
  FuzzedDataProvider in(data, size);
  ppy_str* desc = S("i");
  ppy_list* l = ppy_list_new_i64(0);
  std::vector<int64_t> m;
  int steps = 0;
  while (in.remaining_bytes() > 0 && ++steps < 4000) {
    int64_t v = in.ConsumeBool() ? in.ConsumeIntegralInRange<int64_t>(-5, 5) : in.ConsumeIntegral<int64_t>();
    int64_t i = in.ConsumeIntegralInRange<int64_t>(-20, 20);
    int64_t n = static_cast<int64_t>(m.size());
    try {
      switch (in.ConsumeIntegralInRange<int>(0, 12)) {
        case 0:
        case 1:
          ppy_list_append_i64(l, v);
          m.push_back(v);
          break;
        case 2:
          try {
            int64_t got = ppy_list_pop_i64(l);
            check(!m.empty() && got == m.back(), "pop");
            m.pop_back();
          } catch (const Raised& e) {
            check(m.empty() && e.name == "IndexError", "pop raised " + e.name);
          }
          break;
        case 3: {
          ppy_list_insert_i64(l, i, v);
          int64_t at = i < 0 ? std::max<int64_t>(i + n, 0) : std::min(i, n);
          m.insert(m.begin() + at, v);
          break;
        }
        case 4: {
          auto it = std::find(m.begin(), m.end(), v);
          try {
            ppy_list_remove_i64(l, v, desc);
            check(it != m.end(), "remove of a missing value");
            m.erase(it);
          } catch (const Raised& e) {
            check(it == m.end() && e.name == "ValueError", "remove raised " + e.name);
          }
          break;
        }
        case 5: {
          auto it = std::find(m.begin(), m.end(), v);
          try {
            check(ppy_list_index_i64(l, v, desc) == it - m.begin(), "index");
          } catch (const Raised& e) {
            check(it == m.end() && e.name == "ValueError", "index raised " + e.name);
          }
          check(ppy_list_count_i64(l, v) == std::count(m.begin(), m.end(), v), "count");
          check((ppy_list_contains_i64(l, v) != 0) == (it != m.end()), "in");
          break;
        }
        case 6: {
          int64_t stop = in.ConsumeIntegralInRange<int64_t>(-20, 20);
          int64_t step = in.ConsumeIntegralInRange<int64_t>(-4, 4);
          int omitted = in.ConsumeIntegralInRange<int>(0, 3);
          if (step == 0) step = -1;
          same(ppy_list_slice(l, i, stop, step, omitted), slice(m, i, stop, step, omitted), "slice");
          break;
        }
        case 7:
          if (in.ConsumeBool()) {
            same(
                ppy_list_sorted(l, desc),
                [&] {
                  auto s = m;
                  std::stable_sort(s.begin(), s.end());
                  return s;
                }(),
                "sorted");
          } else {
            ppy_list_sort(l, desc);
            std::stable_sort(m.begin(), m.end());
          }
          break;
        case 8:
          ppy_list_reverse(l);
          std::reverse(m.begin(), m.end());
          break;
        case 9: {
          // extend by a slice of itself, or concatenate
          if (m.size() > 2000) break;
          ppy_list* other = ppy_list_slice(l, 0, i, 1, 1);
          std::vector<int64_t> mo = slice(m, 0, i, 1, 1);
          if (in.ConsumeBool()) {
            ppy_list_extend(l, other);
            m.insert(m.end(), mo.begin(), mo.end());
          } else {
            std::vector<int64_t> both = m;
            both.insert(both.end(), mo.begin(), mo.end());
            same(ppy_list_concat(l, other), both, "concat");
          }
          break;
        }
        case 10: {
          try {
            int64_t s = ppy_list_sum_i64(l);
            int64_t want = 0;
            for (int64_t x : m) check(!__builtin_add_overflow(want, x, &want), "sum overflowed yet answered");
            check(s == want, "sum");
          } catch (const Raised& e) {
            check(e.name == "OverflowError", "sum raised " + e.name);
          }
          try {
            int64_t lo = ppy_list_min_i64(l, in.ConsumeBool());
            check(!m.empty(), "min of an empty list answered");
            (void)lo;
          } catch (const Raised& e) {
            check(m.empty() && e.name == "ValueError", "min raised " + e.name);
          }
          check_str(ppy_list_repr(l, desc), "repr");
          check(ppy_list_eq(l, l, desc) != 0, "l == l");
          break;
        }
        case 11:
          if (i < -n || i >= n) {
            try {
              ppy_list_check(l, i, 0);
              broken("index " + std::to_string(i) + " of a list of " + std::to_string(n) + " passed its check");
            } catch (const Raised& e) {
              check(e.name == "IndexError", "the bounds check raised " + e.name);
            }
          }
          break;
        default:
          ppy_list_clear(l);
          m.clear();
          break;
      }
    } catch (const Raised& e) {
      broken("raised " + e.name + ": " + e.message);
    }
    same(l, m, "after a step");
  }
  return 0;
}
