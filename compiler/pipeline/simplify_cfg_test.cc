#include "gtest/gtest.h"
#include "ppy/pipeline/passes.h"
#include "test_util.h"

namespace ppy::pipeline {
namespace {

using testing::body_of;
using testing::run;

std::string simplify(std::string_view func) {
  auto pass = create_simplify_cfg_pass();
  auto r = run(*pass, std::string("ppyir 1\nmodule @t\n\n") + std::string(func));
  EXPECT_EQ(r.error, "");
  return body_of(r.text);
}

TEST(SimplifyCfg, RemovesUnreachableBlocks) {
  EXPECT_EQ(simplify(R"(func @f(%x: i64) -> i64 {
^entry:
    core.ret %x
^dead:
    %y = core.const 1 : i64
    core.br ^dead2(%y)
^dead2(%z: i64):
    core.ret %z
}
)"),
            "^entry:\n    core.ret %x\n");
}

TEST(SimplifyCfg, MergesStraightLineBlocks) {
  EXPECT_EQ(simplify(R"(func @f(%x: i64) -> i64 {
^entry:
    %one = core.const 1 : i64
    core.br ^next(%one)
^next(%a: i64):
    %s = core.add %x, %a {overflow = "python"} : i64
    core.br ^last
^last:
    core.ret %s
}
)"),
            "^entry:\n    %one = core.const 1 : i64\n    %s = core.add %x, %one {overflow = \"python\"} : i64\n"
            "    core.ret %s\n");
}

TEST(SimplifyCfg, ThreadsThroughForwardingBlocks) {
  EXPECT_EQ(simplify(R"(func @f(%c: bool, %x: i64, %y: i64) -> i64 {
^entry:
    core.cond_br %c, ^fwd(%x), ^other
^fwd(%a: i64):
    core.br ^join(%a)
^other:
    %n = core.neg %y {overflow = "python"} : i64
    core.br ^join(%n)
^join(%r: i64):
    core.ret %r
}
)"),
            "^entry:\n    core.cond_br %c, ^join(%x), ^other\n^other:\n"
            "    %n = core.neg %y {overflow = \"python\"} : i64\n    core.br ^join(%n)\n"
            "^join(%r: i64):\n    core.ret %r\n");
}

TEST(SimplifyCfg, DropsUnusedAndRedundantBlockArguments) {
  // A loop whose carried value never changes, and an argument nobody reads.
  EXPECT_EQ(simplify(R"(func @f(%n: i64, %k: i64) -> i64 {
^entry:
    %z = core.const 0 : i64
    core.br ^head(%z, %k, %n)
^head(%i: i64, %kk: i64, %unused: i64):
    %c = core.cmp.lt %i, %kk : bool
    core.cond_br %c, ^body, ^exit
^body:
    %one = core.const 1 : i64
    %s = core.add %i, %one {overflow = "python"} : i64
    core.br ^head(%s, %kk, %s)
^exit:
    core.ret %i
}
)"),
            "^entry:\n    %z = core.const 0 : i64\n    core.br ^head(%z)\n"
            "^head(%i: i64):\n    %c = core.cmp.lt %i, %k : bool\n    core.cond_br %c, ^body, ^exit\n"
            "^body:\n    %one = core.const 1 : i64\n    %s = core.add %i, %one {overflow = \"python\"} : i64\n"
            "    core.br ^head(%s)\n^exit:\n    core.ret %i\n");
}

TEST(SimplifyCfg, KeepsAnInfiniteLoopValid) {
  std::string out = simplify(R"(func @f() -> () {
^entry:
    core.br ^a
^a:
    core.br ^b
^b:
    core.br ^a
}
)");
  EXPECT_NE(out.find("core.br ^"), std::string::npos) << out;
}

}  // namespace
}  // namespace ppy::pipeline
