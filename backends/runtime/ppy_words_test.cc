// speedrt2's fast paths (ppy_words.h, ppy_dict.c, ppy_list.c) as compiled code
// sees them: a split shares the handle of a word it made a moment ago and
// keeps every piece's bytes and length; a dict of int keys 0..n-1 answers as
// any dict through growth, another key, pops and clear; a small list keeps its
// elements when appends move them out of the header's block.
#include <string>

#include "gtest/gtest.h"
#include "ppy_dict.h"
#include "ppy_runtime.h"
#include "runtime_test_support.h"

namespace {

using namespace ppy::runtime_test;  // NOLINT: the runtime tests' shared helpers

class Words : public RuntimeTest {};

const ppy_str* At(const ppy_list* l, int64_t i) { return static_cast<const ppy_str*>(((void**)l->data)[i]); }

TEST_F(Words, SplitSharesRecentWordsAndKeepsEveryPiece) {
  ppy_list* a = ppy_str_split_ws(S("the fox and the dog, a very-long-word-of-thirty-bytes! é"));
  ASSERT_EQ(a->len, 8);
  EXPECT_EQ(At(a, 0), At(a, 3));  // "the" twice: one handle
  EXPECT_EQ(T(At(a, 4)), "dog,");
  EXPECT_EQ(T(At(a, 6)), "very-long-word-of-thirty-bytes!");
  EXPECT_EQ(T(At(a, 7)), "é");
  EXPECT_EQ(ppy_str_len(At(a, 7)), 1);  // its code points, not its bytes
  ppy_list* b = ppy_str_split(S("dog,the,thE"), S(","));
  EXPECT_EQ(T(At(b, 0)), "dog");
  EXPECT_EQ(At(b, 1), At(a, 0));  // a later split of the same bytes: the same handle
  EXPECT_EQ(T(At(b, 2)), "thE");
  EXPECT_NE(At(b, 2), At(a, 0));
  EXPECT_EQ(T(ppy_str_from_i64(7)), "7");
  EXPECT_EQ(ppy_str_from_i64(42), ppy_str_from_i64(42));
  EXPECT_EQ(T(ppy_str_from_i64(1023)), "1023");
  EXPECT_EQ(T(ppy_str_from_i64(1024)), "1024");
  EXPECT_EQ(T(ppy_str_from_i64(-1)), "-1");
}

TEST_F(Words, DenseIntKeysAnswerAsAnyDict) {
  void* d = ppy_dict_new(S("i:i"));
  EXPECT_EQ(ppy_dict_contains_i64(d, 0), 0);
  for (int64_t k = 0; k < 100; ++k) ppy_dict_set_i64_i64(d, k, k * 10);
  EXPECT_EQ(ppy_dict_get_i64_i64(d, 57), 570);
  EXPECT_EQ(ppy_dict_contains_i64(d, 100), 0);
  EXPECT_EQ(ppy_dict_contains_i64(d, -1), 0);
  EXPECT_EQ(ppy_dict_get_or_i64_i64(d, 100, -7), -7);
  EXPECT_EQ(raised([&] { ppy_dict_get_i64_i64(d, -1); }).message, "-1");
  ppy_dict_set_i64_i64(d, 3, 33);  // an overwrite keeps the pattern
  EXPECT_EQ(ppy_dict_get_i64_i64(d, 3), 33);
  ppy_dict_set_i64_i64(d, 1000, 1);  // another key: the ordinary path, every key still found
  for (int64_t k = 0; k < 100; ++k) ASSERT_EQ(ppy_dict_get_i64_i64(d, k), k == 3 ? 33 : k * 10) << k;
  EXPECT_EQ(ppy_dict_get_i64_i64(d, 1000), 1);
  void* e = ppy_dict_new(S("i:i"));
  for (int64_t k = 0; k < 10; ++k) ppy_dict_set_i64_i64(e, k, k);
  EXPECT_EQ(ppy_dict_pop_i64_i64(e, 4), 4);  // a deletion leaves the pattern
  EXPECT_EQ(ppy_dict_contains_i64(e, 4), 0);
  EXPECT_EQ(ppy_dict_get_i64_i64(e, 9), 9);
  ppy_dict_set_i64_i64(e, 10, 10);
  EXPECT_EQ(T(ppy_dict_repr(e, S(""))), "{0: 0, 1: 1, 2: 2, 3: 3, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10}");
  ppy_dict_clear(e);
  ppy_dict_set_i64_i64(e, 0, 5);
  EXPECT_EQ(ppy_dict_get_i64_i64(e, 0), 5);
  EXPECT_EQ(ppy_dict_len(e), 1);
}

TEST_F(Words, SmallListsKeepTheirElementsWhenTheyGrow) {
  ppy_list* l = ppy_list_new_i64(3);
  for (int64_t i = 0; i < 3; ++i) PPY_LIST_I64(l)[i] = i + 1;
  for (int64_t i = 3; i < 100; ++i) ppy_list_append_i64(l, i + 1);
  ASSERT_EQ(l->len, 100);
  for (int64_t i = 0; i < 100; ++i) ASSERT_EQ(PPY_LIST_I64(l)[i], i + 1) << i;
  ppy_list* s = ppy_list_new_ptr(0);
  for (int64_t i = 0; i < 20; ++i) ppy_list_append_ptr(s, ppy_str_from_i64(i * 1000));
  EXPECT_EQ(T(At(s, 19)), "19000");
  EXPECT_EQ(T(ppy_list_repr(ppy_list_slice(s, 0, 3, 1, 0), S("s"))), "['0', '1000', '2000']");
}

}  // namespace
