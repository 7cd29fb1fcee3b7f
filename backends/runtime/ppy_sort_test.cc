// The orders by key (ppy_sort.h) against a stable sort of the same keys:
// both the merge sort and the counting sort of small-ranged ints, strs, tuple
// keys by plan, and reverse=True keeping equal keys in their first order.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "ppy_list.h"
#include "runtime_test_support.h"

namespace ppy::runtime_test {
namespace {

class SortTest : public RuntimeTest {};

std::vector<int64_t> order_of(const ppy_list* order) {
  const int64_t* at = PPY_LIST_I64(order);
  return std::vector<int64_t>(at, at + order->len);
}

/// What Python's sorted(range(n), key=keys.__getitem__, reverse=reverse) answers.
template <class Less>
std::vector<int64_t> expected(size_t n, bool reverse, Less less) {
  std::vector<int64_t> ix(n);
  std::iota(ix.begin(), ix.end(), 0);
  if (reverse)
    std::stable_sort(ix.begin(), ix.end(), [&](int64_t a, int64_t b) { return less(b, a); });
  else
    std::stable_sort(ix.begin(), ix.end(), less);
  return ix;
}

ppy_list* ints(const std::vector<int64_t>& v) {
  ppy_list* l = ppy_list_new_i64(0);
  for (int64_t x : v) ppy_list_append_i64(l, x);
  return l;
}

TEST_F(SortTest, IntsSortStablyEitherWay) {
  std::vector<int64_t> narrow, wide;
  uint64_t seed = 12345;
  for (int i = 0; i < 1000; ++i) {
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    narrow.push_back(static_cast<int64_t>(seed >> 58) - 20);  // a few dozen values: counting
    wide.push_back(static_cast<int64_t>(seed));               // any i64: merging
  }
  wide.push_back(INT64_MIN);
  wide.push_back(INT64_MAX);
  for (auto* keys : {&narrow, &wide})
    for (bool reverse : {false, true}) {
      auto less = [&](int64_t a, int64_t b) { return (*keys)[a] < (*keys)[b]; };
      EXPECT_EQ(order_of(ppy_sort_order_i64(ints(*keys), reverse)), expected(keys->size(), reverse, less));
    }
  EXPECT_EQ(order_of(ppy_sort_order_i64(ints({}), 0)), std::vector<int64_t>{});
}

TEST_F(SortTest, FloatsAndStrs) {
  std::vector<double> f = {2.5, -1.0, 2.5, 0.0, -0.0, 7.0, -1.0};
  ppy_list* fl = ppy_list_new_f64(0);
  for (double x : f) ppy_list_append_f64(fl, x);
  for (bool reverse : {false, true})
    EXPECT_EQ(order_of(ppy_sort_order_f64(fl, reverse)),
              expected(f.size(), reverse, [&](int64_t a, int64_t b) { return f[a] < f[b]; }));
  std::vector<std::string> s = {"pear", "fig", "", "apple", "fig", "figs", "\xc3\xa9t\xc3\xa9",
                                "zebra and a long tail here",
                                "zebra and a long tail here too, longer than thirty-two bytes", "Fig",
                                // around the 7-byte prefix and its length: NULs, 7 and 8 bytes, same first 7
                                std::string("ab\0", 3), "ab", std::string("ab\0c", 4), "abcdefg", "abcdefgZ",
                                "abcdefgAx", "abcdefg", "abcdefh", std::string("abcdefg\0", 8)};
  ppy_list* sl = ppy_list_new_ptr(0);
  for (auto& x : s) ppy_list_append_ptr(sl, S(x));
  for (bool reverse : {false, true})
    EXPECT_EQ(order_of(ppy_sort_order_str(sl, reverse)),
              expected(s.size(), reverse, [&](int64_t a, int64_t b) { return s[a] < s[b]; }));
}

TEST_F(SortTest, TupleKeysCompareLeafByLeaf) {
  // (str, int) keys in boxes, as a list of tuples holds them.
  std::vector<std::pair<std::string, int64_t>> t = {
      {"b", 2},  {"a", 9},          {"b", 1},          {"a", 9},          {"c", 0},
      {"a", -3}, {"longer one", 4}, {"longer two", 1}, {"longer one", 2}, {"longer one", 4}};
  ppy_list* tl = ppy_list_new_ptr(0);
  for (auto& [name, n] : t) {
    auto* box = static_cast<int64_t*>(ppy_list_box(2));
    box[0] = reinterpret_cast<intptr_t>(S(name));
    box[1] = n;
    ppy_list_append_ptr(tl, box);
  }
  for (bool reverse : {false, true})
    EXPECT_EQ(order_of(ppy_sort_order_desc(tl, reverse, S("(si)"))),
              expected(t.size(), reverse, [&](int64_t a, int64_t b) { return t[a] < t[b]; }));
}

}  // namespace
}  // namespace ppy::runtime_test
