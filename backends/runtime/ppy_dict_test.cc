// The dict and set runtime (ppy_dict.h) as compiled code calls it: insertion
// order kept through overwrites, pops and growth, Python's reprs and errors
// (KeyError with the key's repr, RuntimeError for a loop whose table changed
// size), and a heap the collector keeps bounded when tables are dropped.
#include "ppy_dict.h"

#include <gc.h>

#include <string>

#include "gtest/gtest.h"
#include "ppy_runtime.h"
#include "runtime_test_support.h"

namespace {

using namespace ppy::runtime_test;  // NOLINT: the runtime tests' shared helpers

class Dict : public RuntimeTest {};

std::string R(void* d) { return T(ppy_dict_repr(d, S(""))); }

TEST_F(Dict, KeepsInsertionOrderThroughOverwritesPopsAndGrowth) {
  void* d = ppy_dict_new(S("i:i"));
  EXPECT_EQ(R(d), "{}");
  for (int64_t k = 0; k < 1000; ++k) ppy_dict_set_i64_i64(d, (k * 7919) % 1000, k);
  EXPECT_EQ(ppy_dict_len(d), 1000);
  for (int64_t k = 0; k < 1000; ++k) ASSERT_EQ(ppy_dict_get_i64_i64(d, (k * 7919) % 1000), k);
  ppy_dict_set_i64_i64(d, 0, -1);  // an overwrite keeps the key's place
  ppy_list* keys = ppy_dict_keys(d);
  EXPECT_EQ(PPY_LIST_I64(keys)[0], 0);
  EXPECT_EQ(PPY_LIST_I64(keys)[1], 919);
  for (int64_t k = 1; k < 1000; ++k) {
    int64_t v = ppy_dict_get_i64_i64(d, k);
    ASSERT_EQ(ppy_dict_pop_i64_i64(d, k), v) << k;
    ASSERT_EQ(ppy_dict_contains_i64(d, k), 0) << k;
  }
  EXPECT_EQ(ppy_dict_len(d), 1);
  EXPECT_EQ(R(d), "{0: -1}");
  ppy_dict_set_i64_i64(d, 5, 50);
  ppy_dict_set_i64_i64(d, 3, 30);
  EXPECT_EQ(R(d), "{0: -1, 5: 50, 3: 30}");
  ppy_list* vals = ppy_dict_values(d);
  EXPECT_EQ(vals->len, 3);
  EXPECT_EQ(PPY_LIST_I64(vals)[2], 30);
}

TEST_F(Dict, StrKeysHashByTheirBytes) {
  void* d = ppy_dict_new(S("s:f"));
  ppy_dict_set_ptr_f64(d, S("tea"), 1.5);
  ppy_dict_set_ptr_f64(d, S("it's"), -0.25);
  EXPECT_EQ(ppy_dict_contains_ptr(d, S("tea")), 1);  // another handle, the same text
  EXPECT_EQ(ppy_dict_contains_ptr(d, S("te")), 0);
  EXPECT_EQ(ppy_dict_get_ptr_f64(d, S("tea")), 1.5);
  EXPECT_EQ(ppy_dict_get_or_ptr_f64(d, S("jam"), 2.0), 2.0);
  EXPECT_EQ(R(d), "{'tea': 1.5, \"it's\": -0.25}");
  void* e = ppy_dict_new(S("s:f"));
  ppy_dict_set_ptr_f64(e, S("it's"), -0.25);
  ppy_dict_set_ptr_f64(e, S("tea"), 1.5);
  EXPECT_EQ(ppy_dict_eq(d, e), 1);  // order does not count
  ppy_dict_set_ptr_f64(e, S("tea"), 1.0);
  EXPECT_EQ(ppy_dict_eq(d, e), 0);
}

// speedrt: a probe is remembered for the next call with the same handle
// (`d[k] = d.get(k, 0) + 1`, `if k not in d: d[k] = v`); whatever changes the
// table in between (another key, a pop, growth, clear) is seen.
TEST_F(Dict, TheSameKeyTwiceSeesEveryChangeBetween) {
  void* d = ppy_dict_new(S("s:i"));
  ppy_str* k = S("word");
  EXPECT_EQ(ppy_dict_contains_ptr(d, k), 0);
  ppy_dict_set_ptr_i64(d, S("other"), 1);  // takes the slot the probe of k found free
  ppy_dict_set_ptr_i64(d, k, ppy_dict_get_or_ptr_i64(d, k, 0) + 1);
  ppy_dict_set_ptr_i64(d, k, ppy_dict_get_or_ptr_i64(d, k, 0) + 1);
  EXPECT_EQ(ppy_dict_get_ptr_i64(d, S("word")), 2);
  EXPECT_EQ(ppy_dict_get_ptr_i64(d, S("other")), 1);
  EXPECT_EQ(ppy_dict_pop_ptr_i64(d, k), 2);
  EXPECT_EQ(ppy_dict_contains_ptr(d, k), 0);
  ppy_dict_set_ptr_i64(d, k, 7);
  EXPECT_EQ(R(d), "{'other': 1, 'word': 7}");
  ppy_dict_clear(d);
  EXPECT_EQ(ppy_dict_contains_ptr(d, k), 0);
  void* n = ppy_dict_new(S("i:i"));
  for (int64_t i = 0; i < 5000; ++i) {
    int64_t key = (i * 37) % 1000 - 500 + (i % 3) * (int64_t{1} << 40);
    if (!ppy_dict_contains_i64(n, key)) ppy_dict_set_i64_i64(n, key, 0);  // growth between the two
    ppy_dict_set_i64_i64(n, key, ppy_dict_get_i64_i64(n, key) + 1);
  }
  EXPECT_EQ(ppy_dict_len(n), 3000);
  int64_t total = 0;
  ppy_list* vals = ppy_dict_values(n);
  for (int64_t i = 0; i < vals->len; ++i) total += PPY_LIST_I64(vals)[i];
  EXPECT_EQ(total, 5000);
  // Keys of every length up to 40 bytes, each found through another handle.
  void* w = ppy_dict_new(S("s:i"));
  std::string text;
  for (int i = 0; i < 40; ++i) {
    text += static_cast<char>('a' + i % 26);
    ppy_dict_set_ptr_i64(w, S(text), i);
    ppy_dict_set_ptr_i64(w, S(text + "!"), -i);
  }
  text.clear();
  for (int i = 0; i < 40; ++i) {
    text += static_cast<char>('a' + i % 26);
    ASSERT_EQ(ppy_dict_get_ptr_i64(w, S(text)), i);
    ASSERT_EQ(ppy_dict_get_ptr_i64(w, S(text + "!")), -i);
  }
  EXPECT_EQ(ppy_dict_contains_ptr(w, S("")), 0);
}

TEST_F(Dict, MissingKeysRaiseKeyErrorWithTheKeysRepr) {
  void* d = ppy_dict_new(S("s:i"));
  Raised r = raised([&] { ppy_dict_get_ptr_i64(d, S("b")); });
  EXPECT_EQ(r.name, "KeyError");
  EXPECT_EQ(r.message, "'b'");
  void* n = ppy_dict_new(S("i:s"));
  EXPECT_EQ(raised([&] { ppy_dict_pop_i64_ptr(n, -3); }).message, "-3");
  EXPECT_EQ(ppy_dict_pop_or_i64_i64(ppy_dict_new(S("i:i")), 1, 9), 9);
  void* s = ppy_dict_new(S("i"));
  EXPECT_EQ(raised([&] { ppy_set_remove_i64(s, 4); }).message, "4");
}

TEST_F(Dict, ALoopWhoseTableChangedSizeRaisesRuntimeError) {
  void* d = ppy_dict_new(S("i:b"));
  ppy_dict_set_i64_i64(d, 1, 1);
  ppy_dict_check_iter(d, 1);
  ppy_dict_set_i64_i64(d, 2, 0);
  Raised r = raised([&] { ppy_dict_check_iter(d, 1); });
  EXPECT_EQ(r.name, "RuntimeError");
  EXPECT_EQ(r.message, "dictionary changed size during iteration");
  EXPECT_EQ(R(d), "{1: True, 2: False}");
  void* s = ppy_dict_new(S("s"));
  ppy_set_add_ptr(s, S("x"));
  EXPECT_EQ(raised([&] { ppy_dict_check_iter(s, 0); }).message, "Set changed size during iteration");
}

TEST_F(Dict, SetsPrintAsPython) {
  void* s = ppy_dict_new(S("i"));
  EXPECT_EQ(R(s), "set()");
  ppy_set_add_i64(s, 1);
  ppy_set_add_i64(s, 2);
  ppy_set_add_i64(s, 1);
  EXPECT_EQ(R(s), "{1, 2}");
  ppy_set_discard_i64(s, 1);
  ppy_set_discard_i64(s, 7);
  EXPECT_EQ(R(s), "{2}");
  ppy_dict_clear(s);
  EXPECT_EQ(ppy_dict_len(s), 0);
  void* l = ppy_dict_new(S("s:[i"));
  ppy_list* xs = ppy_list_new_i64(2);
  PPY_LIST_I64(xs)[1] = 7;
  ppy_dict_set_ptr_ptr(l, S("a"), xs);
  EXPECT_EQ(R(l), "{'a': [0, 7]}");
}

void* Tup(int64_t a, const std::string& b) {  // a tuple[int, str] as a list holds it: a box of its leaves
  int64_t* t = static_cast<int64_t*>(ppy_list_box(2));
  t[0] = a;
  t[1] = reinterpret_cast<int64_t>(S(b));
  return t;
}

TEST_F(Dict, TupleKeysAreEqualByTheirElements) {
  void* d = ppy_dict_new(S("(is):i"));
  for (int64_t k = 0; k < 100; ++k) ppy_dict_set_ptr_i64(d, Tup(k, std::to_string(k % 7)), k);
  EXPECT_EQ(ppy_dict_len(d), 100);
  EXPECT_EQ(ppy_dict_get_ptr_i64(d, Tup(42, "0")), 42);  // another box, the same elements
  EXPECT_EQ(ppy_dict_contains_ptr(d, Tup(42, "1")), 0);
  ppy_list* keys = ppy_dict_keys(d);
  const int64_t* third = static_cast<const int64_t*>(((void**)keys->data)[3]);
  EXPECT_EQ(third[0], 3);
  EXPECT_EQ(T(reinterpret_cast<const ppy_str*>(third[1])), "3");
  Raised r = raised([&] { ppy_dict_get_ptr_i64(d, Tup(1, "it's")); });
  EXPECT_EQ(r.name, "KeyError");
  EXPECT_EQ(r.message, "(1, \"it's\")");
  void* one = ppy_dict_new(S("(i)"));
  int64_t* t = static_cast<int64_t*>(ppy_list_box(1));
  t[0] = 7;
  ppy_set_add_ptr(one, t);
  EXPECT_EQ(R(one), "{(7,)}");
}

TEST_F(Dict, ObjectKeysAreEqualByIdentity) {
  void* d = ppy_dict_new(S("o:i"));
  int64_t* a = static_cast<int64_t*>(GC_MALLOC(16));
  int64_t* b = static_cast<int64_t*>(GC_MALLOC(16));
  a[0] = b[0] = 7;  // the same fields: still two keys
  ppy_dict_set_ptr_i64(d, a, 1);
  ppy_dict_set_ptr_i64(d, b, 2);
  ppy_dict_set_ptr_i64(d, a, 3);
  EXPECT_EQ(ppy_dict_len(d), 2);
  EXPECT_EQ(ppy_dict_get_ptr_i64(d, a), 3);
  EXPECT_EQ(ppy_dict_get_ptr_i64(d, b), 2);
  EXPECT_EQ(ppy_dict_keys(d)->scanned, 1);  // the keys are handles the collector must see
}

TEST_F(Dict, HashIsPythonsForIntsAndTuplesOfInts) {
  EXPECT_EQ(ppy_hash_int(7), 7);
  EXPECT_EQ(ppy_hash_int(-1), -2);
  EXPECT_EQ(ppy_hash_int(INT64_C(1) << 62), 2);  // mod 2^61 - 1, as python3: hash(1 << 62)
  ppy_list* lanes = ppy_list_new_i64(2);
  PPY_LIST_I64(lanes)[0] = 1;
  PPY_LIST_I64(lanes)[1] = 2;
  EXPECT_EQ(ppy_hash_lanes(lanes), INT64_C(-3550055125485641917));  // python3: hash((1, 2))
}

TEST_F(Dict, DroppedTablesAreCollected) {
  size_t before = 0;
  for (int round = 0; round < 200; ++round) {
    void* d = ppy_dict_new(S("s:s"));
    for (int k = 0; k < 2000; ++k) {
      std::string key = std::to_string(k);
      ppy_dict_set_ptr_ptr(d, S(key), S(key + key));
      if (k % 3 == 0) ppy_dict_pop_ptr_ptr(d, S(key));
    }
    ASSERT_EQ(ppy_dict_len(d), 1333);
    if (round == 20) before = GC_get_heap_size();
  }
  // 200 rounds of ~200 KB each stay within a few rounds' worth of heap.
  EXPECT_LT(GC_get_heap_size(), before * 4 + (64u << 20));
}

}  // namespace
