// random and collections (ppy_random.h, ppy_collections.h) as compiled code
// calls them: python3's exact values after random.seed (recorded from
// python3.11), and Counter's most_common order and repr.
#include <gc.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ppy_dict.h"  // ppy_random.h, ppy_collections.h
#include "ppy_runtime.h"
#include "ppy_str.h"
#include "runtime_test_support.h"

namespace {

using namespace ppy::runtime_test;  // NOLINT: the runtime tests' shared helpers

class Random : public RuntimeTest {};

ppy_list* Ints(const std::vector<int64_t>& v) {
  ppy_list* l = ppy_list_new_i64(0);
  for (int64_t x : v) ppy_list_append_i64(l, x);
  return l;
}
std::vector<int64_t> Vec(const ppy_list* l) { return {PPY_LIST_I64(l), PPY_LIST_I64(l) + l->len}; }

TEST_F(Random, SeedThenRandomIsPythons) {
  ppy_random_seed(42);
  EXPECT_EQ(ppy_random_random(), 0.6394267984578837);
  EXPECT_EQ(ppy_random_random(), 0.025010755222666936);
  EXPECT_EQ(ppy_random_random(), 0.27502931836911926);
}

TEST_F(Random, BitsAndRangesArePythons) {
  ppy_random_seed(0);
  EXPECT_EQ(ppy_random_getrandbits(32), 3626764237);
  EXPECT_EQ(ppy_random_getrandbits(63), 6990895411537866686);
  EXPECT_EQ(ppy_random_randrange1(1000), 911);
  ppy_random_seed((int64_t(1) << 40) + 5);  // a seed of two 32-bit words
  EXPECT_EQ(ppy_random_randint(1, 100), 65);
  EXPECT_EQ(ppy_random_gauss(0, 1), -1.4681746058035265);
  EXPECT_EQ(ppy_random_gauss(0, 1), -0.15668825093057873);  // the kept second value
}

TEST_F(Random, ShuffleSampleChoicesArePythons) {
  ppy_random_seed(-3);
  ppy_list* l = Ints({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  ppy_random_shuffle(l);
  EXPECT_EQ(Vec(l), (std::vector<int64_t>{1, 5, 6, 0, 9, 4, 7, 2, 8, 3}));
  std::vector<int64_t> hundred;
  for (int64_t i = 0; i < 100; ++i) hundred.push_back(i);
  ppy_random_seed(1);
  EXPECT_EQ(Vec(ppy_random_sample(Ints(hundred), 5)), (std::vector<int64_t>{17, 72, 97, 8, 32}));
  EXPECT_EQ(Vec(ppy_random_choices(Ints({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), 4)), (std::vector<int64_t>{1, 7, 4, 3}));
  ppy_random_seed(1);
  EXPECT_EQ(Vec(ppy_random_choices_wi(Ints({0, 1, 2, 3}), Ints({1, 2, 3, 4}), 5)),
            (std::vector<int64_t>{1, 3, 3, 1, 2}));
}

TEST_F(Random, ErrorsArePythons) {
  try {
    ppy_random_randint(5, 1);
    FAIL();
  } catch (const Raised& r) {
    EXPECT_EQ(r.name, "ValueError");
    EXPECT_EQ(r.message, "empty range for randrange() (5, 2, -3)");
  }
  try {
    ppy_random_choice_index(0);
    FAIL();
  } catch (const Raised& r) {
    EXPECT_EQ(r.message, "Cannot choose from an empty sequence");
  }
  try {
    ppy_random_sample(Ints({1, 2}), 3);
    FAIL();
  } catch (const Raised& r) {
    EXPECT_EQ(r.message, "Sample larger than population or is negative");
  }
}

TEST_F(Random, CounterMostCommonAndRepr) {
  ppy_str* desc = ppy_str_literal("s:i", 3);
  void* c = ppy_collections_new(desc, PPY_DICT_COUNTER, 0);
  ppy_counter_update_str(c, ppy_str_literal("abracadabra", 11));
  ppy_str* r = ppy_dict_repr(c, desc);
  EXPECT_EQ(std::string(PPY_STR_BYTES(r), r->len), "Counter({'a': 5, 'b': 2, 'r': 2, 'c': 1, 'd': 1})");
  EXPECT_EQ(ppy_counter_total(c), 11);
  EXPECT_EQ(ppy_dict_get_ptr_i64(c, ppy_str_literal("z", 1)), 0);  // a missing key counts 0
  EXPECT_EQ(ppy_dict_len(c), 5);                                   // and is not stored
  void* plain = ppy_dict_new(desc);
  try {
    ppy_counter_total(plain);
    FAIL();
  } catch (const Raised& r) {
    EXPECT_EQ(r.name, "AttributeError");
    EXPECT_EQ(r.message, "'dict' object has no attribute 'total'");
  }
}

}  // namespace
