#include "gtest/gtest.h"
#include "ppy/pipeline/passes.h"
#include "test_util.h"

namespace ppy::pipeline {
namespace {

using testing::run;

/// The number of ops the pass left with `overflow = "proven"`.
int proven_count(const std::string& text) {
  int n = 0;
  for (size_t at = 0; (at = text.find("overflow = \"proven\"", at)) != std::string::npos; ++at) ++n;
  return n;
}

/// `for i in range(3000000): total += (i * i) % 7` after the shared passes.
constexpr const char* kSumLoop = R"(ppyir 1
module @t

func @f(%n: i64) -> i64 {
^entry:
    %c7 = core.const 7 : i64
    %c0 = core.const 0 : i64
    %end = core.const 3000000 : i64
    %c1 = core.const 1 : i64
    core.br ^head(%c0, %c0)
^head(%i: i64, %total: i64):
    %go = core.cmp.lt %i, %end : bool
    core.cond_br %go, ^body, ^exit
^body:
    %sq = core.mul %i, %i {overflow = "python"} : i64
    %m = core.mod %sq, %c7 {overflow = "python", rounding = "floor"} : i64
    %t = core.add %total, %m {overflow = "python"} : i64
    %next = core.add %i, %c1 {overflow = "python"} : i64
    core.br ^head(%next, %t)
^exit:
    core.ret %total
}
)";

TEST(IntRange, ACounterBoundedByItsLoopTestCannotOverflow) {
  auto pass = create_int_range_pass();
  auto r = run(*pass, kSumLoop);
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(r.changed);
  // i * i and i + 1 are proven under i < 3000000; the running total is unbounded.
  EXPECT_NE(r.text.find("%sq = core.mul %i, %i {overflow = \"proven\"}"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("%next = core.add %i, %c1 {overflow = \"proven\"}"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("%t = core.add %total, %m {overflow = \"python\"}"), std::string::npos) << r.text;
  EXPECT_EQ(proven_count(r.text), 2);
}

TEST(IntRange, AnUnboundedCounterKeepsItsChecks) {
  // The same loop up to a parameter: i * i can overflow, i + 1 cannot (i < n).
  std::string text = kSumLoop;
  text.replace(text.find("core.cmp.lt %i, %end"), 20, "core.cmp.lt %i, %n  ");
  auto pass = create_int_range_pass();
  auto r = run(*pass, text);
  ASSERT_EQ(r.error, "");
  EXPECT_NE(r.text.find("%sq = core.mul %i, %i {overflow = \"python\"}"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("%next = core.add %i, %c1 {overflow = \"proven\"}"), std::string::npos) << r.text;
}

TEST(IntRange, ARemainderBoundsTheValueItFeeds) {
  // s = (s + i) % 1000003 with i < 100: s stays below 1000003, so s + i fits.
  auto pass = create_int_range_pass();
  auto r = run(*pass, R"(ppyir 1
module @t

func @f() -> i64 {
^entry:
    %p = core.const 1000003 : i64
    %c0 = core.const 0 : i64
    %c1 = core.const 1 : i64
    %end = core.const 100 : i64
    core.br ^head(%c0, %c0)
^head(%s: i64, %i: i64):
    %go = core.cmp.lt %i, %end : bool
    core.cond_br %go, ^body, ^exit
^body:
    %a = core.add %s, %i {overflow = "python"} : i64
    %b = core.mod %a, %p {overflow = "python", rounding = "floor"} : i64
    %n = core.add %i, %c1 {overflow = "python"} : i64
    core.br ^head(%b, %n)
^exit:
    core.ret %s
}
)");
  ASSERT_EQ(r.error, "");
  EXPECT_NE(r.text.find("%a = core.add %s, %i {overflow = \"proven\"}"), std::string::npos) << r.text;
}

TEST(IntRange, TheFalseEdgeOfATestRestrictsToo) {
  // if x >= 10: ret 0 else: x * x, with x >= -5 known from an earlier test.
  auto pass = create_int_range_pass();
  auto r = run(*pass, R"(ppyir 1
module @t

func @f(%x: i64) -> i64 {
^entry:
    %lo = core.const -5 : i64
    %ten = core.const 10 : i64
    %c0 = core.const 0 : i64
    %low = core.cmp.lt %x, %lo : bool
    core.cond_br %low, ^out, ^mid
^mid:
    %big = core.cmp.ge %x, %ten : bool
    core.cond_br %big, ^out, ^sq
^sq:
    %y = core.mul %x, %x {overflow = "checked"} : i64
    %z = core.neg %x {overflow = "python"} : i64
    %w = core.mul %x, %y {overflow = "python"} : i64
    core.ret %w
^out:
    core.ret %c0
}
)");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(proven_count(r.text), 3) << r.text;
}

TEST(IntRange, WrappingAndUnknownValuesProveNothing) {
  auto pass = create_int_range_pass();
  auto r = run(*pass, R"(ppyir 1
module @t

func @f(%x: i64) -> i64 {
^entry:
    %c1 = core.const 1 : i64
    %a = core.add %x, %c1 {overflow = "python"} : i64
    %b = core.mul %x, %x {overflow = "wrap"} : i64
    %c = core.add %b, %c1 {overflow = "python"} : i64
    core.ret %c
}
)");
  ASSERT_EQ(r.error, "");
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(proven_count(r.text), 0);
}

/// `while i < n: s = (s + i * i) % 1000003` (tools/bench/llvm/int_loop.ppy), and a
/// `//` and `%` of `x` (a parameter: either sign) by the same constant.
constexpr const char* kSignedLoop = R"(ppyir 1
module @t

func @f(%n: i64, %x: i64) -> i64 {
^entry:
    %p = core.const 1000003 : i64
    %m7 = core.const -7 : i64
    %c0 = core.const 0 : i64
    %c1 = core.const 1 : i64
    core.br ^head(%c0, %c0)
^head(%s: i64, %i: i64):
    %go = core.cmp.lt %i, %n : bool
    core.cond_br %go, ^body, ^exit
^body:
    %sq = core.mul %i, %i {overflow = "python"} : i64
    %a = core.add %s, %sq {overflow = "python"} : i64
    %b = core.mod %a, %p {overflow = "python", rounding = "floor"} : i64
    %next = core.add %i, %c1 {overflow = "python"} : i64
    core.br ^head(%b, %next)
^exit:
    %q = core.div %x, %p {overflow = "python", rounding = "floor"} : i64
    %r = core.mod %x, %p {overflow = "python", rounding = "floor"} : i64
    %neg = core.neg %s {overflow = "python"} : i64
    %t = core.div %neg, %m7 {overflow = "python", rounding = "floor"} : i64
    %u = core.add %q, %r {overflow = "python"} : i64
    %v = core.add %u, %t {overflow = "python"} : i64
    core.ret %v
}
)";

TEST(IntRange, OperandsOfKnownSignsDivideWithoutTheFloorFixUp) {
  auto pass = create_int_range_pass();
  auto r = run(*pass, kSignedLoop);
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(r.changed);
  // s + i * i >= 0 (checked: it completed) by 1000003 > 0; -s <= 0 by -7 < 0.
  EXPECT_NE(r.text.find("%b = core.mod %a, %p {overflow = \"python\", rounding = \"trunc\", signs = \"alike\"}"), std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("%t = core.div %neg, %m7 {overflow = \"python\", rounding = \"trunc\", signs = \"alike\"}"), std::string::npos)
      << r.text;
  // x may be negative: -1 // 1000003 is -1 and -1 % 1000003 is 1000002, not 0 and -1.
  EXPECT_NE(r.text.find("%q = core.div %x, %p {overflow = \"python\", rounding = \"floor\"}"), std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("%r = core.mod %x, %p {overflow = \"python\", rounding = \"floor\"}"), std::string::npos)
      << r.text;
  auto second = run(*pass, r.text);
  EXPECT_FALSE(second.changed);
}

TEST(IntRange, ASecondRunHasNothingToDo) {
  auto pass = create_int_range_pass();
  auto first = run(*pass, kSumLoop);
  ASSERT_EQ(first.error, "");
  auto second = run(*pass, first.text);
  ASSERT_EQ(second.error, "");
  EXPECT_FALSE(second.changed);
  EXPECT_EQ(second.text, first.text);
}

}  // namespace
}  // namespace ppy::pipeline
