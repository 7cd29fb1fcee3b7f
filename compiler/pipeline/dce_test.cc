#include "gtest/gtest.h"
#include "ppy/pipeline/passes.h"
#include "test_util.h"

namespace ppy::pipeline {
namespace {

using testing::body_of;
using testing::run;

TEST(Dce, RemovesUnusedPureOpsTransitivelyAndKeepsEffects) {
  auto pass = create_dce_pass();
  auto r = run(*pass, R"(ppyir 1
module @t

func @f(%x: i64, %b: buffer<i64>, %i: index) -> i64 {
^entry:
    %a = core.add %x, %x {overflow = "python"} : i64
    %c = core.mul %a, %a {overflow = "python"} : i64
    %l = core.buffer_load %b, %i : i64
    core.call_extern %x {abi = "c", callee = "ppy_print_i64"}
    %ok = core.cmp.lt %x, %x : bool
    core.guard %ok {kind = "bounds"}
    core.ret %x
}
)");
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(body_of(r.text),
            "^entry:\n    %l = core.buffer_load %b, %i : i64\n"
            "    core.call_extern %x {abi = \"c\", callee = \"ppy_print_i64\"}\n"
            "    %ok = core.cmp.lt %x, %x : bool\n    core.guard %ok {kind = \"bounds\"}\n    core.ret %x\n");
}

TEST(Dce, RemovesDeadLoadsAndWriteOnlySlots) {
  auto pass = create_dce_pass();
  auto r = run(*pass, R"(ppyir 1
module @t

func @f(%x: i64, %p: ptr<i64>) -> i64 {
^entry:
    %s = core.alloca : ptr<i64, stack>
    core.store %x, %s
    %v = core.load %s : i64
    %kept = core.alloca : ptr<i64, stack>
    core.store %x, %kept
    %u = core.load %kept : i64
    %g = core.load %p : i64
    core.ret %u
}
)");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(body_of(r.text),
            "^entry:\n    %kept = core.alloca : ptr<i64, stack>\n    core.store %x, %kept\n"
            "    %u = core.load %kept : i64\n    %g = core.load %p : i64\n    core.ret %u\n");
}

TEST(Dce, NothingToDoIsNoChange) {
  auto pass = create_dce_pass();
  auto r = run(*pass, "ppyir 1\nmodule @t\n\nfunc @f(%x: i64) -> i64 {\n^entry:\n    core.ret %x\n}\n");
  EXPECT_EQ(r.error, "");
  EXPECT_FALSE(r.changed);
}

}  // namespace
}  // namespace ppy::pipeline
