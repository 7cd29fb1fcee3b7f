#include "suggest.h"

#include "gtest/gtest.h"

namespace ppy::frontend {
namespace {

TEST(Suggest, NearSpellingsAreSuggestedFarOnesAreNot) {
  std::vector<std::string> names = {"people", "count", "total", "print"};
  EXPECT_EQ(closest_spelling("pepole", names), "people");  // a swap
  EXPECT_EQ(closest_spelling("cout", names), "count");     // a deletion
  EXPECT_EQ(closest_spelling("totals", names), "total");   // an insertion
  EXPECT_EQ(closest_spelling("prnt", names), "print");
  EXPECT_EQ(closest_spelling("x", names), "");             // nothing near
  EXPECT_EQ(closest_spelling("velocity", names), "");
  EXPECT_EQ(closest_spelling("count", names), "");         // never itself
}

TEST(Suggest, TheNearestWinsAndTiesGoToTheFirst) {
  EXPECT_EQ(closest_spelling("ab", {"abc", "ab_"}), "abc");
  EXPECT_EQ(closest_spelling("kernal", {"kern", "kernel"}), "kernel");
  EXPECT_EQ(did_you_mean("lenn", python_builtin_names()), "; did you mean 'len'?");
  EXPECT_EQ(did_you_mean("zzzzzz", python_builtin_names()), "");
}

}  // namespace
}  // namespace ppy::frontend
