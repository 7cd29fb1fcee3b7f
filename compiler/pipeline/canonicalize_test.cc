#include "gtest/gtest.h"
#include "ppy/pipeline/passes.h"
#include "test_util.h"

namespace ppy::pipeline {
namespace {

using testing::body_of;
using testing::run;

std::string canon(std::string_view func) {
  auto pass = create_canonicalize_pass();
  auto r = run(*pass, std::string("ppyir 1\nmodule @t\n\n") + std::string(func));
  EXPECT_EQ(r.error, "");
  return body_of(r.text);
}

TEST(Canonicalize, FoldsIntegerArithmetic) {
  EXPECT_EQ(canon(R"(func @f() -> i64 {
^entry:
    %a = core.const 20 : i64
    %b = core.const 22 : i64
    %c = core.add %a, %b {overflow = "python"} : i64
    %d = core.const -7 : i64
    %e = core.const 2 : i64
    %q = core.div %d, %e {overflow = "python", rounding = "floor"} : i64
    %r = core.mod %d, %e {overflow = "python", rounding = "floor"} : i64
    %t = core.div %d, %e {overflow = "python", rounding = "trunc"} : i64
    %s1 = core.add %c, %q {overflow = "python"} : i64
    %s2 = core.mul %s1, %r {overflow = "python"} : i64
    %s3 = core.sub %s2, %t {overflow = "python"} : i64
    core.ret %s3
}
)"),
            "^entry:\n    %s3 = core.const 41 : i64\n    core.ret %s3\n");
}

TEST(Canonicalize, FoldsShiftsAsTheInterpreterRunsThem) {
  std::string out = canon(R"(func @f() -> i64 {
^entry:
    %a = core.const -17 : i64
    %two = core.const 2 : i64
    %big = core.const 70 : i64
    %r = core.shr %a, %two : i64
    %s = core.shr %a, %big : i64
    %one = core.const 1 : i64
    %l = core.shl %one, %big {overflow = "wrap"} : i64
    %o = core.shl %one, %big {overflow = "python"} : i64
    %k = core.shl %a, %two {overflow = "python"} : i64
    %x = core.add %r, %s {overflow = "python"} : i64
    %y = core.add %x, %l {overflow = "python"} : i64
    %z = core.add %y, %k {overflow = "python"} : i64
    %w = core.add %z, %o {overflow = "python"} : i64
    core.ret %w
}
)");
  // -17 >> 2 = -5, -17 >> 70 = -1, 1 << 70 wraps to 0, -17 << 2 = -68; 1 << 70 must raise.
  EXPECT_NE(out.find("%z = core.const -74 : i64"), std::string::npos) << out;
  EXPECT_NE(out.find("%o = core.shl %one, %big {overflow = \"python\"}"), std::string::npos) << out;
}

TEST(Canonicalize, LeavesOverflowingPythonOpsToRaise) {
  std::string out = canon(R"(func @f() -> i64 {
^entry:
    %a = core.const 9223372036854775807 : i64
    %b = core.const 1 : i64
    %c = core.add %a, %b {overflow = "python"} : i64
    %w = core.add %a, %b {overflow = "wrap"} : i64
    %d = core.mul %c, %w {overflow = "checked"} : i64
    core.ret %d
}
)");
  EXPECT_NE(out.find("%c = core.add %a, %b {overflow = \"python\"}"), std::string::npos) << out;
  EXPECT_NE(out.find("%w = core.const -9223372036854775808 : i64"), std::string::npos) << out;
}

TEST(Canonicalize, NeverFoldsDivisionByZero) {
  std::string out = canon(R"(func @f() -> i64 {
^entry:
    %a = core.const 1 : i64
    %z = core.const 0 : i64
    %c = core.div %a, %z {overflow = "python", rounding = "floor"} : i64
    core.ret %c
}
)");
  EXPECT_NE(out.find("core.div %a, %z"), std::string::npos) << out;
}

TEST(Canonicalize, FloatFloorDivisionAndModuloFollowPython) {
  EXPECT_EQ(canon(R"(func @f() -> (f64, f64, f64) {
^entry:
    %a = core.const -7.0 : f64
    %b = core.const 2.0 : f64
    %q = core.div %a, %b {rounding = "floor"} : f64
    %r = core.mod %b, %a {rounding = "floor"} : f64
    %s = math.sqrt %b : f64
    core.ret %q, %r, %s
}
)"),
            "^entry:\n    %q = core.const -4.0 : f64\n    %r = core.const -5.0 : f64\n"
            "    %s = core.const 1.4142135623730951 : f64\n    core.ret %q, %r, %s\n");
}

TEST(Canonicalize, IntegerTimesZeroIsZeroButFloatIsNot) {
  std::string out = canon(R"(func @f(%x: i64, %y: f64) -> (i64, f64, i64, f64) {
^entry:
    %z = core.const 0 : i64
    %fz = core.const 0.0 : f64
    %one = core.const 1 : i64
    %fone = core.const 1.0 : f64
    %a = core.mul %x, %z {overflow = "python"} : i64
    %b = core.mul %y, %fz : f64
    %c = core.add %z, %x {overflow = "python"} : i64
    %d = core.mul %fone, %y : f64
    core.ret %a, %b, %c, %d
}
)");
  EXPECT_NE(out.find("%a = core.const 0 : i64"), std::string::npos) << out;
  EXPECT_NE(out.find("%b = core.mul %y, %fz : f64"), std::string::npos) << out;
  EXPECT_NE(out.find("core.ret %a, %b, %x, %y"), std::string::npos) << out;
}

TEST(Canonicalize, FloatPlusZeroIsKeptForNegativeZero) {
  std::string out = canon(R"(func @f(%y: f64) -> (f64, f64) {
^entry:
    %pz = core.const 0.0 : f64
    %nz = core.const -0.0 : f64
    %a = core.add %y, %pz : f64
    %b = core.add %y, %nz : f64
    core.ret %a, %b
}
)");
  EXPECT_NE(out.find("%a = core.add %y, %pz : f64"), std::string::npos) << out;
  EXPECT_NE(out.find("core.ret %a, %y"), std::string::npos) << out;
}

TEST(Canonicalize, ComparisonsCastsAndSelects) {
  EXPECT_EQ(canon(R"(func @f(%x: i64, %y: i64) -> (i64, i64, bool) {
^entry:
    %a = core.const 3 : i64
    %b = core.const 4 : i64
    %lt = core.cmp.lt %a, %b : bool
    %s = core.select %lt, %x, %y : i64
    %f = core.const -2.5 : f64
    %i = core.cast %f : i64
    %n = core.cmp.ne %x, %x : bool
    core.ret %s, %i, %n
}
)"),
            "^entry:\n    %i = core.const -2 : i64\n    %n = core.const false : bool\n"
            "    core.ret %x, %i, %n\n");
}

TEST(Canonicalize, CondBrOnConstantBecomesBr) {
  EXPECT_EQ(canon(R"(func @f(%x: i64) -> i64 {
^entry:
    %t = core.const true : bool
    core.cond_br %t, ^a(%x), ^b
^a(%v: i64):
    core.ret %v
^b:
    core.ret %x
}
)"),
            "^entry:\n    core.br ^a(%x)\n^a(%v: i64):\n    core.ret %v\n^b:\n    core.ret %x\n");
}

TEST(Canonicalize, GuardThatCannotFailGoesAndOneThatMustStays) {
  std::string out = canon(R"(func @f(%x: i64) -> i64 {
^entry:
    %two = core.const 2 : i64
    %z = core.const 0 : i64
    %ok = core.cmp.ne %two, %z : bool
    core.guard %ok {kind = "zero_division"}
    %bad = core.cmp.ne %z, %z : bool
    core.guard %bad {kind = "zero_division"}
    core.ret %x
}
)");
  EXPECT_EQ(out, "^entry:\n    %bad = core.const false : bool\n    core.guard %bad {kind = \"zero_division\"}\n"
                 "    core.ret %x\n");
}

TEST(Canonicalize, SecondRunHasNothingToDo) {
  auto pass = create_canonicalize_pass();
  std::string text = R"(ppyir 1
module @t

func @f(%x: i64, %y: f64) -> (i64, f64) {
^entry:
    %a = core.const 2 : i64
    %b = core.add %a, %x {overflow = "python"} : i64
    %c = core.mul %b, %a {overflow = "python"} : i64
    %d = core.const 2.0 : f64
    %e = core.mul %d, %y : f64
    core.ret %c, %e
}
)";
  auto first = run(*pass, text);
  ASSERT_EQ(first.error, "");
  EXPECT_TRUE(first.changed);
  EXPECT_NE(first.text.find("core.add %x, %a"), std::string::npos) << first.text;
  auto second = run(*pass, first.text);
  EXPECT_FALSE(second.changed);
  EXPECT_EQ(second.text, first.text);
}

}  // namespace
}  // namespace ppy::pipeline
