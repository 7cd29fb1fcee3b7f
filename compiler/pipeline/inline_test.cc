#include "gtest/gtest.h"
#include "ppy/pipeline/passes.h"
#include "test_util.h"

namespace ppy::pipeline {
namespace {

using testing::run;

constexpr std::string_view kModule = R"(ppyir 1
module @t

func @t_sq(%x: i64) -> i64 {
^entry:
    %y = core.mul %x, %x {overflow = "python"} : i64
    core.ret %y
}

func @t_fact(%n: i64) -> i64 {
^entry:
    %one = core.const 1 : i64
    %c = core.cmp.le %n, %one : bool
    core.cond_br %c, ^base, ^rec
^base:
    core.ret %one
^rec:
    %m = core.sub %n, %one {overflow = "python"} : i64
    %r = core.call %m {callee = @t_fact} : i64
    %p = core.mul %n, %r {overflow = "python"} : i64
    core.ret %p
}

extern func @other_g(i64) -> i64 attrs {ppy.external = true}

func @t_main(%a: i64) -> i64 {
^entry:
    %s = core.call %a {callee = @t_sq} : i64
    %f = core.call %s {callee = @t_fact} : i64
    %g = core.call %f {callee = @other_g} : i64
    %t = core.add %s, %g {overflow = "python"} : i64
    core.ret %t
}
)";

/// `text` with its first `from` spelled `to` (an attribute or a `loc` added in place).
std::string respelled(std::string text, std::string_view from, std::string_view to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

constexpr std::string_view kSq = "func @t_sq(%x: i64) -> i64 {";

TEST(Inline, InlinesSmallCalleesAndKeepsRecursionAndExterns) {
  auto pass = create_inline_pass();
  auto r = run(*pass, kModule);
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(r.changed);
  size_t main_at = r.text.find("func @t_main");
  ASSERT_NE(main_at, std::string::npos);
  std::string main = r.text.substr(main_at);
  EXPECT_EQ(main,
            "func @t_main(%a: i64) -> i64 {\n"
            "^entry:\n"
            "    core.br ^t_sq.entry\n"
            "^t_sq.entry:\n"
            "    %y = core.mul %a, %a {overflow = \"python\"} : i64\n"
            "    core.br ^entry.cont(%y)\n"
            "^entry.cont(%s: i64):\n"
            "    %f = core.call %s {callee = @t_fact} : i64\n"
            "    %g = core.call %f {callee = @other_g} : i64\n"
            "    %t = core.add %s, %g {overflow = \"python\"} : i64\n"
            "    core.ret %t\n"
            "}\n");
  // The recursive function still calls itself.
  EXPECT_NE(r.text.find("%r = core.call %m {callee = @t_fact}"), std::string::npos);
}

TEST(Inline, AnInlinedOpIsInTheCallsComprehensionFrame) {
  // The callee's `ppy.comp` numbers its own comprehensions: a copy takes the
  // call's (here comprehension 1 of the caller), or none where the call has none.
  auto pass = create_inline_pass();
  auto r = run(*pass, R"(ppyir 1
module @t

func @t_sq(%x: i64) -> i64 {
^entry:
    %y = core.mul %x, %x {overflow = "python", ppy.comp = 2} : i64
    core.ret %y
}

func @t_main(%a: i64) -> i64 {
^entry:
    %s = core.call %a {callee = @t_sq, ppy.comp = 1} : i64
    %t = core.call %s {callee = @t_sq} : i64
    core.ret %t
}
)");
  ASSERT_EQ(r.error, "");
  std::string main = r.text.substr(r.text.find("func @t_main"));
  EXPECT_NE(main.find("%y = core.mul %a, %a {overflow = \"python\", ppy.comp = 1} : i64"), std::string::npos) << main;
  EXPECT_NE(main.find("core.mul %s, %s {overflow = \"python\"} : i64"), std::string::npos) << main;
}

TEST(Inline, MultipleReturnsJoinInTheContinuation) {
  auto pass = create_inline_pass();
  auto r = run(*pass, R"(ppyir 1
module @t

func @t_abs(%x: i64) -> i64 {
^entry:
    %z = core.const 0 : i64
    %c = core.cmp.lt %x, %z : bool
    core.cond_br %c, ^neg, ^pos
^neg:
    %n = core.neg %x {overflow = "python"} : i64
    core.ret %n
^pos:
    core.ret %x
}

func @t_main(%a: i64) -> i64 {
^entry:
    %s = core.call %a {callee = @t_abs} : i64
    %t = core.call %s {callee = @t_abs} : i64
    core.ret %t
}
)");
  ASSERT_EQ(r.error, "");
  std::string main = r.text.substr(r.text.find("func @t_main"));
  EXPECT_EQ(main.find("core.call"), std::string::npos) << main;
  EXPECT_NE(main.find("core.br ^entry.cont(%n)"), std::string::npos) << main;
  EXPECT_NE(main.find("^t_abs.neg.1:"), std::string::npos) << main;
}

TEST(Inline, OptLevelZeroIsNeitherInlinedNorInlining) {
  auto pass = create_inline_pass();
  std::string callee_zero = respelled(std::string(kModule), kSq, "func @t_sq(%x: i64) -> i64 attrs {ppy.opt_level = 0} {");
  auto r = run(*pass, callee_zero);
  ASSERT_EQ(r.error, "");
  EXPECT_FALSE(r.changed) << r.text;
  std::string caller_zero = respelled(std::string(kModule), "func @t_main(%a: i64) -> i64 {",
                                     "func @t_main(%a: i64) -> i64 attrs {ppy.opt_level = 0} {");
  r = run(*pass, caller_zero);
  ASSERT_EQ(r.error, "");
  EXPECT_FALSE(r.changed) << r.text;
}

// Issue 34: a function with a traceback frame (one that may raise, with a
// `loc`) stays a call, so its frame shows at every level; one that cannot
// raise is inlined as before.
TEST(Inline, FunctionsWithAFrameStay) {
  auto pass = create_inline_pass();
  std::string framed = respelled(std::string(kModule), kSq,
                                "func @t_sq(%x: i64) -> i64 attrs {ppy.effects = [\"raises\"]} loc(\"t.ppy\":1:1) {");
  auto r = run(*pass, framed);
  ASSERT_EQ(r.error, "");
  EXPECT_FALSE(r.changed) << r.text;
  std::string pure = respelled(std::string(kModule), kSq,
                              "func @t_sq(%x: i64) -> i64 attrs {ppy.effects = [\"pure\"]} loc(\"t.ppy\":1:1) {");
  // The copy is at the call's place (no inlined-at): a traceback's line there is the caller's.
  pure = respelled(pure, "core.mul %x, %x {overflow = \"python\"} : i64",
                   "core.mul %x, %x {overflow = \"python\"} : i64 loc(\"t.ppy\":2:5)");
  pure = respelled(pure, "{callee = @t_sq} : i64", "{callee = @t_sq} : i64 loc(\"t.ppy\":9:5)");
  r = run(*pass, pure);
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(r.changed) << r.text;
  EXPECT_NE(r.text.find("%y = core.mul %a, %a {overflow = \"python\"} : i64 loc(\"t.ppy\":9:5)"), std::string::npos)
      << r.text;
}

TEST(Inline, APluginStubIsInlinedThoughItMayRaise) {
  auto pass = create_inline_pass();
  std::string stub = respelled(std::string(kModule), kSq,
                              "func @t_sq(%x: i64) -> i64 attrs {ppy.effects = [\"raises\"]} loc(\"lib/vec.pyi\":1:1) {");
  auto r = run(*pass, stub);
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(r.changed) << r.text;  // the plugin's passes see the native calls it makes
}

TEST(Inline, BigCalleesStay) {
  InlineOptions small;
  small.max_callee_ops = 1;
  auto pass = create_inline_pass(small);
  auto r = run(*pass, kModule);
  ASSERT_EQ(r.error, "");
  EXPECT_FALSE(r.changed);
}

}  // namespace
}  // namespace ppy::pipeline
