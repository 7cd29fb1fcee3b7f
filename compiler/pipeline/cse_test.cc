#include "gtest/gtest.h"
#include "ppy/pipeline/passes.h"
#include "test_util.h"

namespace ppy::pipeline {
namespace {

using testing::body_of;
using testing::run;

// A buffer's length is read from memory (a list grows): it is never reused.
TEST(Cse, DominatingDuplicatesAreReusedAndSiblingsAreNot) {
  auto pass = create_cse_pass();
  auto v = run(*pass, R"(ppyir 1
module @t

func @t_f(%c: bool, %xs: buffer<i64>, %x: i64) -> (index, index, i64, i64) {
^entry:
    %n = core.buffer_len %xs : index
    core.cond_br %c, ^a, ^b
^a:
    %n2 = core.buffer_len %xs : index
    %s = core.add %x, %x {overflow = "python"} : i64
    %w = core.add %x, %x {overflow = "wrap"} : i64
    %s2 = core.add %x, %x {overflow = "python"} : i64
    core.ret %n2, %n, %s2, %w
^b:
    %t = core.add %x, %x {overflow = "python"} : i64
    %l = core.buffer_load %xs, %n : i64
    %l2 = core.buffer_load %xs, %n : i64
    core.ret %n, %n, %t, %l2
}
)");
  ASSERT_EQ(v.error, "");
  EXPECT_TRUE(v.changed);
  EXPECT_EQ(body_of(v.text),
            "^entry:\n    %n = core.buffer_len %xs : index\n    core.cond_br %c, ^a, ^b\n"
            "^a:\n    %n2 = core.buffer_len %xs : index\n"
            "    %s = core.add %x, %x {overflow = \"python\"} : i64\n"
            "    %w = core.add %x, %x {overflow = \"wrap\"} : i64\n    core.ret %n2, %n, %s, %w\n"
            "^b:\n    %t = core.add %x, %x {overflow = \"python\"} : i64\n"
            "    %l = core.buffer_load %xs, %n : i64\n    %l2 = core.buffer_load %xs, %n : i64\n"
            "    core.ret %n, %n, %t, %l2\n");
}

}  // namespace
}  // namespace ppy::pipeline
